# The version and the git commit a build comes from, for --version and the package: read at
# configure time, "unknown" outside a git checkout. A commit or a checkout configures again, so
# the commit named is that of the tree being built (uncommitted changes add "-dirty").
set(TCPSCOPE_GIT_COMMIT "unknown")
set(TCPSCOPE_SOURCE_DATE_EPOCH "")
find_package(Git QUIET)
if(GIT_FOUND)
    # safe.directory: a CI that builds a checkout owned by another user still gets the commit.
    set(git ${GIT_EXECUTABLE} -c safe.directory=* -C ${PROJECT_SOURCE_DIR})
    execute_process(COMMAND ${git} describe --always --dirty --abbrev=12 --exclude=*
                    OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE status ERROR_QUIET)
    if(status EQUAL 0 AND commit)
        set(TCPSCOPE_GIT_COMMIT ${commit})
        execute_process(COMMAND ${git} log -1 --format=%ct OUTPUT_VARIABLE TCPSCOPE_SOURCE_DATE_EPOCH
                        OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
        # Configure again when HEAD moves: the HEAD file (checkout) and the branch it names (commit).
        execute_process(COMMAND ${git} rev-parse --path-format=absolute --git-path HEAD
                        OUTPUT_VARIABLE head_file OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
        execute_process(COMMAND ${git} symbolic-ref -q HEAD
                        OUTPUT_VARIABLE branch OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
        set(watched ${head_file})
        if(branch)
            execute_process(COMMAND ${git} rev-parse --path-format=absolute --git-path ${branch}
                            OUTPUT_VARIABLE branch_file OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
            list(APPEND watched ${branch_file})
        endif()
        foreach(file IN LISTS watched)
            if(EXISTS ${file})
                set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${file})
            endif()
        endforeach()
    endif()
endif()
set(TCPSCOPE_VERSION_LINE "tcpscope ${PROJECT_VERSION} (commit ${TCPSCOPE_GIT_COMMIT})")
message(STATUS "tcpscope ${PROJECT_VERSION}, commit ${TCPSCOPE_GIT_COMMIT}")

configure_file(${CMAKE_CURRENT_LIST_DIR}/tcpscope_version.hpp.in ${PROJECT_BINARY_DIR}/generated/tcpscope_version.hpp @ONLY)
add_library(tcpscope_version INTERFACE)
target_include_directories(tcpscope_version INTERFACE ${PROJECT_BINARY_DIR}/generated)
