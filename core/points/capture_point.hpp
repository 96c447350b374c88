#pragma once
#include <string>
#include <vector>

namespace tcpscope {

/// One place where packets were captured (a host, one side of a proxy): a name and the files
/// recorded there, merged in time order as one capture of that place.
struct CapturePoint {
    std::string name;
    std::vector<std::string> files;
};

}  // namespace tcpscope
