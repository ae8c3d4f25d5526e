// A choice (enum) param's values as one table of {value, "name"}: the param's declaration lists
// the names from it and evaluate reads the value through it, so no choice is spelt twice.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace grove {

template <typename E>
struct Choice
{
    E value;
    std::string_view name;
};

// e.g. constexpr ChoiceTable<Channel, 2> kChannels{{{Channel::Grey, "grey"}, {Channel::Red, "red"}}};
template <typename E, std::size_t N>
using ChoiceTable = std::array<Choice<E>, N>;

template <typename E, std::size_t N>
std::vector<std::string> choiceNames(const ChoiceTable<E, N> &table)
{
    std::vector<std::string> names;
    for (const Choice<E> &c : table)
        names.emplace_back(c.name);
    return names;
}

// The name of `value` ("" when the table lacks it).
template <typename E, std::size_t N>
std::string choiceName(const ChoiceTable<E, N> &table, E value)
{
    for (const Choice<E> &c : table)
        if (c.value == value)
            return std::string(c.name);
    return {};
}

template <typename E, std::size_t N>
std::optional<E> choiceValue(const ChoiceTable<E, N> &table, std::string_view name)
{
    for (const Choice<E> &c : table)
        if (c.name == name)
            return c.value;
    return std::nullopt;
}

} // namespace grove
