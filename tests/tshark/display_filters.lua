-- Runs many display filters over one capture in a single tshark pass, with Wireshark's own filter
-- engine: one tap listener per filter (a listener's filter is a display filter, as -Y's).
-- Usage: tshark -q -n -r FILE -X lua_script:display_filters.lua -X lua_script1:FILTERS
-- FILTERS holds one expression a line; the output is one line per filter, in order:
-- "<line number>\t<frame numbers it matches, separated by spaces>" (a filter tshark rejects: "!").
local args = { ... }
local frames = {}
local count = 0
for line in io.lines(args[1]) do
    count = count + 1
    local index = count
    frames[index] = {}
    local ok, listener = pcall(Listener.new, "frame", line)
    if ok then
        function listener.packet(pinfo)
            local list = frames[index]
            list[#list + 1] = pinfo.number
        end
    else
        frames[index] = nil
    end
end

local function printAll()
    for index = 1, count do
        if frames[index] == nil then
            io.write(index, "\t!\n")
        else
            io.write(index, "\t", table.concat(frames[index], " "), "\n")
        end
    end
end

-- tshark calls every listener's draw at the end of the file; print once, from the first.
local printed = false
local last = Listener.new("frame", nil)
function last.draw()
    if not printed then
        printed = true
        printAll()
    end
end
