// FieldBoxes: see FieldBoxes.h.
#include "inspector/FieldBoxes.h"

#include "inspector/NumberField.h"

#include <QColorDialog>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>

namespace grove {

QHBoxLayout *tightRow(QWidget *w, int spacing)
{
    auto *layout = new QHBoxLayout(w);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(spacing);
    return layout;
}

QLineEdit *fieldBox(ParamKind kind, const QString &placeholder, QWidget *parent)
{
    QLineEdit *box = kind == ParamKind::String ? new QLineEdit(parent) : new NumberField(parent);
    box->setPlaceholderText(placeholder);
    return box;
}

void showField(QLineEdit *box, const Value *value)
{
    if (auto *number = qobject_cast<NumberField *>(box))
        number->setNumber(value && value->isNumber() ? value->toNumber() : 0);
    else {
        box->setText(QString::fromStdString(value && value->isString() ? value->toString() : std::string()));
        box->setCursorPosition(0);  // a narrow box shows a name's start ("goblin_c"), not its end
    }
}

// The box's value, or nothing with the reason in *error.
std::optional<Value> readField(QLineEdit *box, QString *error)
{
    if (auto *number = qobject_cast<NumberField *>(box)) {
        auto v = number->number(error);
        return v ? std::optional<Value>(Value(*v)) : std::nullopt;
    }
    return Value(box->text().toStdString());
}

void paintSwatch(QPushButton *button, const QColor &color)
{
    const QColor text = color.lightness() > 128 ? Qt::black : Qt::white;
    button->setText(color.name());
    button->setStyleSheet(QString("background:%1; color:%2;").arg(color.name(), text.name()));
}

void pickColor(QWidget *parent, const QColor &initial, const QString &title, std::function<void(const QColor &)> chosen)
{
    auto *dialog = new QColorDialog(initial, parent);
    dialog->setWindowTitle(title);
    dialog->setOption(QColorDialog::DontUseNativeDialog);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(dialog, &QColorDialog::colorSelected, parent, std::move(chosen));
    dialog->open();
}

} // namespace grove
