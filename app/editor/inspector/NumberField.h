// A box for typing one number: shows numbers as the file writes them and reads back what was typed
// without clamping or rewriting it, so a refused value stays in the box with its reason.
#pragma once

#include <QLineEdit>

#include <optional>

namespace grove {

class NumberField : public QLineEdit
{
    Q_OBJECT

public:
    explicit NumberField(QWidget *parent = nullptr);

    // Shows a value (".inf" for infinity); the text is no longer "typed".
    void setNumber(double value);
    // What was typed: a number (inf, .inf and nan included, for the checks to judge), or nothing
    // with the reason in *error.
    std::optional<double> number(QString *error = nullptr) const;
    // The text parsed as a number, as core's formatNumber writes it.
    static std::optional<double> parse(const QString &text);
};

} // namespace grove
