// NumberField: the text is the truth; parse() reads it as the graph file does, with a decimal point
// whatever the user's locale (as Blender and Houdini do), and a typed comma gets its own answer.
#include "inspector/NumberField.h"

#include "core/base/NumberText.h"
#include "core/base/Value.h"

#include <limits>

namespace grove {

NumberField::NumberField(QWidget *parent) : QLineEdit(parent)
{
    // room for "-1234.56" and the frame: two boxes and a "to" (a range) beside the longest param
    // name still fit the Inspector at its narrowest; longer numbers scroll within the box
    setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("-1234.56")) + 16);
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
    QString sign;
    if (t.startsWith('-') || t.startsWith('+')) {
        sign = t.left(1);
        t = t.mid(1);
    }
    if (t == "inf" || t == "infinity")
        t = ".inf";
    if (t == "nan" || t == ".nan")
        return std::numeric_limits<double>::quiet_NaN();
    // core's parser, the same as the graph file's: a decimal point in every locale
    double v = 0;
    if (!parseNumber((sign + t).toStdString(), v))
        return std::nullopt;
    return v;
}

std::optional<double> NumberField::number(QString *error) const
{
    auto v = parse(text());
    if (!v && error) {
        const QString typed = text().trimmed();
        if (typed.isEmpty())
            *error = tr("type a number");
        else if (typed.contains(',') && parse(QString(typed).replace(',', '.')))
            *error = tr("\"%1\" has a comma: Grove writes a decimal point in every language, as in %2")
                         .arg(typed, QString(typed).replace(',', '.'));
        else
            *error = tr("\"%1\" is not a number").arg(typed);
    }
    return v;
}

} // namespace grove
