#include "strace/errno_names.hpp"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace tcpscope {
namespace {

struct NamedNumber {
    std::string name;
    int number = 0;
};

/// A name <-> number table, sorted by name for lookups, indexed by number for names.
class NameTable {
public:
    explicit NameTable(std::vector<NamedNumber> entries) : byName_(std::move(entries)) {
        for (const NamedNumber& entry : byName_) {
            if (entry.number >= 0 && static_cast<size_t>(entry.number) >= byNumber_.size()) {
                byNumber_.resize(static_cast<size_t>(entry.number) + 1);
            }
            // The first name given for a number is the one printed (EAGAIN, not EWOULDBLOCK).
            if (byNumber_[static_cast<size_t>(entry.number)].empty()) {
                byNumber_[static_cast<size_t>(entry.number)] = entry.name;
            }
        }
        std::sort(byName_.begin(), byName_.end(),
                  [](const NamedNumber& a, const NamedNumber& b) { return a.name < b.name; });
    }

    [[nodiscard]] int find(std::string_view name) const {
        const auto found =
            std::lower_bound(byName_.begin(), byName_.end(), name,
                             [](const NamedNumber& entry, std::string_view key) { return entry.name < key; });
        return found != byName_.end() && found->name == name ? found->number : 0;
    }

    [[nodiscard]] std::string_view name(int number) const {
        return number > 0 && static_cast<size_t>(number) < byNumber_.size()
                   ? std::string_view(byNumber_[static_cast<size_t>(number)])
                   : std::string_view();
    }

private:
    std::vector<NamedNumber> byName_;
    std::vector<std::string> byNumber_;
};

const NameTable& errnoTable() {
    static const NameTable table = [] {
        std::vector<NamedNumber> entries;
        // glibc knows the user-visible numbers; strace prints the same names.
        for (int number = 1; number < 200; ++number) {
            if (const char* name = strerrorname_np(number)) {
                entries.push_back({name, number});
            }
        }
        // Kernel-internal codes strace shows for interrupted or special returns (include/linux/errno.h).
        const std::pair<const char*, int> internal[] = {{"ERESTARTSYS", 512},
                                                        {"ERESTARTNOINTR", 513},
                                                        {"ERESTARTNOHAND", 514},
                                                        {"ENOIOCTLCMD", 515},
                                                        {"ERESTART_RESTARTBLOCK", 516},
                                                        {"EPROBE_DEFER", 517},
                                                        {"EOPENSTALE", 518},
                                                        {"ENOPARAM", 519},
                                                        {"EBADHANDLE", 521},
                                                        {"ENOTSYNC", 522},
                                                        {"EBADCOOKIE", 523},
                                                        {"ENOTSUPP", 524},
                                                        {"ETOOSMALL", 525},
                                                        {"ESERVERFAULT", 526},
                                                        {"EBADTYPE", 527},
                                                        {"EJUKEBOX", 528},
                                                        {"EIOCBQUEUED", 529},
                                                        {"ERECALLCONFLICT", 530}};
        for (const auto& [name, number] : internal) {
            entries.push_back({name, number});
        }
        // Aliases after the primary names, so the printed name stays the primary one.
        entries.push_back({"EWOULDBLOCK", EAGAIN});
        entries.push_back({"EDEADLOCK", EDEADLK});
        entries.push_back({"ENOTSUP", EOPNOTSUPP});
        return NameTable(std::move(entries));
    }();
    return table;
}

const NameTable& signalTable() {
    static const NameTable table = [] {
        std::vector<NamedNumber> entries;
        for (int number = 1; number < 32; ++number) {
            if (const char* abbreviation = sigabbrev_np(number)) {
                entries.push_back({std::string("SIG") + abbreviation, number});
            }
        }
        entries.push_back({"SIGRTMIN", SIGRTMIN});
        return NameTable(std::move(entries));
    }();
    return table;
}

}  // namespace

int errnoFromName(std::string_view name) {
    return errnoTable().find(name);
}

std::string_view errnoName(int number) {
    return errnoTable().name(number);
}

int signalFromName(std::string_view name) {
    return signalTable().find(name);
}

std::string_view signalName(int number) {
    return signalTable().name(number);
}

}  // namespace tcpscope
