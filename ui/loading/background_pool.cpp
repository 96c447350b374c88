#include "loading/background_pool.hpp"

namespace tcpscope::ui {

QThreadPool& backgroundPool() {
    static QThreadPool pool;
    return pool;
}

}  // namespace tcpscope::ui
