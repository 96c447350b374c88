#pragma once
#include <string_view>

namespace tcpscope {

/// The Linux errno number strace printed as `name` ("EINPROGRESS" -> 115, also the kernel-internal
/// ERESTARTSYS family strace shows for interrupted calls); 0 if the name is not known.
int errnoFromName(std::string_view name);
/// "EINPROGRESS" for 115; "" for a number without a name.
std::string_view errnoName(int number);

/// The signal number strace printed as `name` ("SIGCHLD" -> 17); 0 if the name is not known.
int signalFromName(std::string_view name);
/// "SIGCHLD" for 17; "" for a number without a name.
std::string_view signalName(int number);

}  // namespace tcpscope
