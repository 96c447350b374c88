#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tcpscope {

/// A detector's state per connection (`Slots` = 1) or per connection side (`Slots` = 2), indexed
/// by connection id. Ids are dense from 0, so a vector serves; it grows geometrically and builds
/// only the entries of connections seen. All slots of a connection are built at its first
/// lookup, so a reference to one side stays valid while the other side is looked up; a lookup of
/// a newer connection may move every entry.
template <typename State, size_t Slots = 1>
class ConnectionStates {
public:
    State& of(uint32_t connection, size_t slot = 0) {
        const size_t first = size_t{connection} * Slots;
        if (first + Slots > states_.size()) {
            states_.resize(first + Slots);
        }
        return states_[first + slot];
    }

    /// Entries built so far (Slots per connection), for passes over every state.
    [[nodiscard]] size_t size() const { return states_.size(); }
    State& operator[](size_t index) { return states_[index]; }
    const State& operator[](size_t index) const { return states_[index]; }
    auto begin() { return states_.begin(); }
    auto end() { return states_.end(); }

private:
    std::vector<State> states_;
};

}  // namespace tcpscope
