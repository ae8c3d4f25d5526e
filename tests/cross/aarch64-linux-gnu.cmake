# Cross build for aarch64 with Debian's g++-aarch64-linux-gnu and the arm64 multiarch libraries
# (/usr/lib/aarch64-linux-gnu); binaries run under qemu-user. Used by tests/cross/aarch64.sh.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

# Libraries and CMake packages: the cross toolchain's sysroot, then the multiarch arm64 folders
# (/usr/lib/aarch64-linux-gnu through CMAKE_LIBRARY_ARCHITECTURE); headers without an
# architecture (Boost, nlohmann-json) are the shared /usr/include. Programs are the build machine's.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
set(CMAKE_IGNORE_PATH /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu)
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)

# Runs with the multiarch loader and C library of libc6:arm64 (see aarch64.sh: not -L
# /usr/aarch64-linux-gnu, whose loader is another glibc build than libc6:arm64's libc).
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)
