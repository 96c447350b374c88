# The system call recorder of `tcpscope-cli record` (core/recorder/bpf): a BPF program built with
# clang, its skeleton made by bpftool, loaded with libbpf. vmlinux.h is dumped from the building
# machine's kernel BTF into the build directory (never committed). Without any of these the rest
# builds and `record` says, in one line, what is missing (TCPSCOPE_RECORDER_MISSING).
option(TCPSCOPE_SYSCALL_RECORDER "Build the eBPF system call recorder when clang, bpftool and libbpf are there" ON)

set(TCPSCOPE_RECORDER_MISSING "")
if(NOT TCPSCOPE_SYSCALL_RECORDER)
    set(TCPSCOPE_RECORDER_MISSING "disabled with -DTCPSCOPE_SYSCALL_RECORDER=OFF")
else()
    find_program(TCPSCOPE_BPF_CLANG NAMES clang clang-16 clang-15 clang-14)
    find_program(TCPSCOPE_BPFTOOL NAMES bpftool PATHS /usr/sbin /sbin)
    pkg_check_modules(LIBBPF IMPORTED_TARGET libbpf)
    set(missing "")
    if(NOT TCPSCOPE_BPF_CLANG)
        list(APPEND missing "clang")
    endif()
    if(NOT TCPSCOPE_BPFTOOL)
        list(APPEND missing "bpftool")
    endif()
    if(NOT LIBBPF_FOUND)
        list(APPEND missing "libbpf-dev")
    endif()
    if(missing)
        list(JOIN missing ", " missing_text)
        set(TCPSCOPE_RECORDER_MISSING "built without ${missing_text} (apt-get install clang bpftool libbpf-dev, then rebuild)")
    elseif(NOT EXISTS /sys/kernel/btf/vmlinux)
        set(TCPSCOPE_RECORDER_MISSING
            "built on a machine without /sys/kernel/btf/vmlinux (kernel BTF), from which vmlinux.h is made")
    endif()
endif()
if(TCPSCOPE_RECORDER_MISSING)
    message(STATUS "System call recorder: not built: ${TCPSCOPE_RECORDER_MISSING}")
else()
    message(STATUS "System call recorder: built (${TCPSCOPE_BPF_CLANG}, ${TCPSCOPE_BPFTOOL}, libbpf ${LIBBPF_VERSION})")
endif()

# Adds the recorder's BPF program and skeleton to `target`, or tells it why there is none.
function(tcpscope_syscall_recorder target)
    if(TCPSCOPE_RECORDER_MISSING)
        target_compile_definitions(${target} PRIVATE TCPSCOPE_RECORDER_MISSING="${TCPSCOPE_RECORDER_MISSING}")
        return()
    endif()
    set(source_dir ${CMAKE_CURRENT_SOURCE_DIR}/recorder/bpf)
    set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/record_bpf)
    if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
        set(bpf_arch x86)
    elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "aarch64|arm64")
        set(bpf_arch arm64)
    else()
        set(bpf_arch ${CMAKE_SYSTEM_PROCESSOR})
    endif()
    add_custom_command(OUTPUT ${out_dir}/vmlinux.h
        COMMAND ${CMAKE_COMMAND} -E make_directory ${out_dir}
        COMMAND ${TCPSCOPE_BPFTOOL} btf dump file /sys/kernel/btf/vmlinux format c > ${out_dir}/vmlinux.h
        COMMENT "vmlinux.h from this kernel's BTF")
    add_custom_command(OUTPUT ${out_dir}/syscall_recorder.skel.h
        COMMAND ${TCPSCOPE_BPF_CLANG} -g -O2 -target bpf -D__TARGET_ARCH_${bpf_arch} -I${out_dir} -I${source_dir}
                -c ${source_dir}/syscall_recorder.bpf.c -o ${out_dir}/syscall_recorder.bpf.o
        # Linking drops the DWARF lines: the skeleton embeds the object, BTF kept.
        COMMAND ${TCPSCOPE_BPFTOOL} gen object ${out_dir}/syscall_recorder.o ${out_dir}/syscall_recorder.bpf.o
        COMMAND ${TCPSCOPE_BPFTOOL} gen skeleton ${out_dir}/syscall_recorder.o name syscall_recorder
                > ${out_dir}/syscall_recorder.skel.h
        DEPENDS ${out_dir}/vmlinux.h ${source_dir}/syscall_recorder.bpf.c ${source_dir}/syscall_event.h
        COMMENT "BPF system call recorder and its skeleton")
    add_custom_target(${target}_bpf DEPENDS ${out_dir}/syscall_recorder.skel.h)
    add_dependencies(${target} ${target}_bpf)
    target_include_directories(${target} SYSTEM PRIVATE ${out_dir})
    target_compile_definitions(${target} PRIVATE TCPSCOPE_BPF_RECORDER=1)
    target_link_libraries(${target} PRIVATE PkgConfig::LIBBPF)
endfunction()
