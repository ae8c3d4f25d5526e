// NumberField: the text is the truth; parse() understands what YAML and designers write.
#include "NumberField.h"

#include "core/Value.h"

#include <cmath>
#include <limits>

namespace grove {

NumberField::NumberField(QWidget *parent) : QLineEdit(parent)
{
    setMinimumWidth(84);
    setAlignment(Qt::AlignRight | Qt::AlignVCenter);
}

void NumberField::setNumber(double value)
{
    setText(QString::fromStdString(formatNumber(value)));
    setCursorPosition(0);
}

std::optional<double> NumberField::parse(const QString &text)
{
    QString t = text.trimmed().toLower();
    double sign = 1;
    if (t.startsWith('-') || t.startsWith('+')) {
        sign = t.startsWith('-') ? -1 : 1;
        t = t.mid(1);
    }
    if (t == "inf" || t == ".inf" || t == "infinity")
        return sign * std::numeric_limits<double>::infinity();
    if (t == "nan" || t == ".nan")
        return std::numeric_limits<double>::quiet_NaN();
    bool ok = false;
    const double v = t.toDouble(&ok);  // C locale: "1e308", ".5", "12"
    if (!ok || t.isEmpty() || !std::isfinite(v))
        return std::nullopt;
    return sign * v;
}

std::optional<double> NumberField::number(QString *error) const
{
    auto v = parse(text());
    if (!v && error)
        *error = text().trimmed().isEmpty() ? tr("type a number") : tr("\"%1\" is not a number").arg(text().trimmed());
    return v;
}

} // namespace grove
