#include "dissect/dissection.hpp"

namespace tcpscope::dissect {

DissectionNode& DissectionNode::add(std::string childLabel, std::string childValue, std::string childField,
                                    uint32_t childOffset, uint32_t childLength) {
    children.push_back(DissectionNode{
        std::move(childLabel), std::move(childValue), std::move(childField), childOffset, childLength, {}});
    return children.back();
}

const DissectionNode* DissectionNode::find(std::string_view name) const {
    if (field == name) {
        return this;
    }
    for (const DissectionNode& child : children) {
        if (const DissectionNode* found = child.find(name)) {
            return found;
        }
    }
    return nullptr;
}

}  // namespace tcpscope::dissect
