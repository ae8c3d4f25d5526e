// One small editor class per ParamKind family, built from the spec's ranges and enum values.
#include "ParamEditors.h"

#include "core/YamlValue.h"

#include <QCheckBox>
#include <QColorDialog>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>

#include <cmath>
#include <limits>

namespace grove {

namespace {

constexpr double kInfinityStandIn = 1e300;  // a spin box cannot hold infinity; this stands for it
constexpr int kSliderSteps = 1000;

QHBoxLayout *tightRow(QWidget *w)
{
    auto *layout = new QHBoxLayout(w);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    return layout;
}

// A spin box that shows numbers as the file writes them, and infinity where the spec allows it.
class NumberSpinBox : public QDoubleSpinBox
{
public:
    NumberSpinBox(const ParamSpec &spec, QWidget *parent) : QDoubleSpinBox(parent), m_spec(spec)
    {
        const bool integer = spec.kind == ParamKind::Integer;
        setDecimals(integer ? 0 : 12);
        const double cap = spec.allowInfinite ? kInfinityStandIn : 1e15;
        setRange(std::isfinite(spec.min) ? spec.min : -cap, std::isfinite(spec.max) ? spec.max : cap);
        setKeyboardTracking(false);
        setAccelerated(true);
        const double span = spec.softMax - spec.softMin;
        setSingleStep(integer ? 1 : (span > 0 ? std::pow(10.0, std::floor(std::log10(span / 100))) : 0.01));
        setMinimumWidth(84);
    }

    QString textFromValue(double value) const override
    {
        if (m_spec.allowInfinite && std::abs(value) >= kInfinityStandIn)
            return value > 0 ? ".inf" : "-.inf";
        return QString::fromStdString(formatNumber(value));
    }

    double valueFromText(const QString &text) const override
    {
        const QString t = text.trimmed().toLower();
        if (t == ".inf" || t == "inf" || t == "+inf" || t == "+.inf")
            return kInfinityStandIn;
        if (t == "-.inf" || t == "-inf")
            return -kInfinityStandIn;
        return t.toDouble();
    }

    QValidator::State validate(QString &text, int &) const override
    {
        const QString t = text.trimmed().toLower();
        if (t.isEmpty() || t == "-" || t == "." || t == "-." || t.endsWith('e'))
            return QValidator::Intermediate;
        if (m_spec.allowInfinite && QString(".inf").startsWith(t.mid(t.startsWith('-') ? 1 : 0)))
            return t.endsWith("inf") ? QValidator::Acceptable : QValidator::Intermediate;
        bool ok = false;
        t.toDouble(&ok);
        return ok ? QValidator::Acceptable : QValidator::Invalid;
    }

    // The model's value: the stand-in becomes real infinity again.
    static double toModel(double v)
    {
        return std::abs(v) >= kInfinityStandIn ? std::copysign(std::numeric_limits<double>::infinity(), v) : v;
    }

private:
    ParamSpec m_spec;
};

class NumberEditor : public ParamEditor
{
public:
    NumberEditor(const ParamSpec &spec, QWidget *parent)
        : ParamEditor(spec, parent), m_slider(new QSlider(Qt::Horizontal, this)), m_spin(new NumberSpinBox(spec, this))
    {
        auto *row = tightRow(this);
        row->addWidget(m_slider, 1);
        row->addWidget(m_spin);
        m_integer = spec.kind == ParamKind::Integer;
        if (m_integer)
            m_slider->setRange(int(spec.softMin), int(spec.softMax));
        else
            m_slider->setRange(0, kSliderSteps);
        m_slider->setToolTip(tr("%1 … %2 (type any value in the box)")
                                 .arg(QString::fromStdString(formatNumber(spec.softMin)),
                                      QString::fromStdString(formatNumber(spec.softMax))));
        connect(m_slider, &QSlider::valueChanged, this, [this](int pos) {
            const double v = fromSlider(pos);
            QSignalBlocker block(m_spin);
            m_spin->setValue(v);
            emit edited(Value(v));
        });
        connect(m_spin, &QDoubleSpinBox::valueChanged, this, [this](double v) {
            QSignalBlocker block(m_slider);
            m_slider->setValue(toSlider(v));
            emit edited(Value(NumberSpinBox::toModel(m_integer ? std::round(v) : v)));
        });
        connect(m_slider, &QSlider::sliderReleased, this, &ParamEditor::editFinished);
        connect(m_spin, &QDoubleSpinBox::editingFinished, this, &ParamEditor::editFinished);
    }

    void setValue(const Value &value) override
    {
        const double v = value.toNumber();
        QSignalBlocker b1(m_slider), b2(m_spin);
        m_spin->setValue(std::isinf(v) ? std::copysign(kInfinityStandIn, v) : v);
        m_slider->setValue(toSlider(v));
    }

private:
    double fromSlider(int pos) const
    {
        if (m_integer)
            return pos;
        const double span = m_spec.softMax - m_spec.softMin;
        const double v = m_spec.softMin + span * pos / kSliderSteps;
        // Round to the slider's resolution so a drag writes 0.42, not 0.41999999.
        const double digits = std::ceil(-std::log10(span / kSliderSteps));
        const double scale = std::pow(10.0, std::max(0.0, digits));
        return std::round(v * scale) / scale;
    }

    int toSlider(double v) const
    {
        if (m_integer)
            return int(std::clamp(v, m_spec.softMin, m_spec.softMax));
        const double span = m_spec.softMax - m_spec.softMin;
        if (!(span > 0) || std::isnan(v))
            return 0;
        return int(std::lround(std::clamp((v - m_spec.softMin) / span, 0.0, 1.0) * kSliderSteps));
    }

    QSlider *m_slider;
    NumberSpinBox *m_spin;
    bool m_integer = false;
};

class BoolEditor : public ParamEditor
{
public:
    BoolEditor(const ParamSpec &spec, QWidget *parent) : ParamEditor(spec, parent), m_box(new QCheckBox(this))
    {
        tightRow(this)->addWidget(m_box);
        connect(m_box, &QCheckBox::toggled, this, [this](bool on) {
            emit edited(Value(on));
            emit editFinished();
        });
    }
    void setValue(const Value &value) override
    {
        QSignalBlocker block(m_box);
        m_box->setChecked(value.toBool());
    }

private:
    QCheckBox *m_box;
};

class EnumEditor : public ParamEditor
{
public:
    EnumEditor(const ParamSpec &spec, QWidget *parent) : ParamEditor(spec, parent), m_combo(new QComboBox(this))
    {
        tightRow(this)->addWidget(m_combo);
        for (const auto &v : spec.enumValues)
            m_combo->addItem(QString::fromStdString(v));
        connect(m_combo, &QComboBox::activated, this,
                [this](int i) {
                    emit edited(Value(m_combo->itemText(i).toStdString()));
                    emit editFinished();
                });
    }
    void setValue(const Value &value) override
    {
        QSignalBlocker block(m_combo);
        m_combo->setCurrentText(QString::fromStdString(value.isString() ? value.toString() : std::string()));
    }

private:
    QComboBox *m_combo;
};

class StringEditor : public ParamEditor
{
public:
    StringEditor(const ParamSpec &spec, QWidget *parent) : ParamEditor(spec, parent), m_line(new QLineEdit(this))
    {
        tightRow(this)->addWidget(m_line);
        connect(m_line, &QLineEdit::editingFinished, this,
                [this] {
                    emit edited(Value(m_line->text().toStdString()));
                    emit editFinished();
                });
    }
    void setValue(const Value &value) override
    {
        QSignalBlocker block(m_line);
        m_line->setText(QString::fromStdString(value.isString() ? value.toString() : std::string()));
    }

private:
    QLineEdit *m_line;
};

class ColorEditor : public ParamEditor
{
public:
    ColorEditor(const ParamSpec &spec, QWidget *parent) : ParamEditor(spec, parent), m_button(new QPushButton(this))
    {
        tightRow(this)->addWidget(m_button);
        m_button->setMinimumWidth(110);
        connect(m_button, &QPushButton::clicked, this, [this] {
            QColor c = QColorDialog::getColor(m_color, this, tr("Choose %1").arg(QString::fromStdString(m_spec.name)));
            if (c.isValid() && c != m_color) {
                emit edited(Value(c.name().toStdString()));
                emit editFinished();
            }
        });
    }
    void setValue(const Value &value) override
    {
        m_color = QColor(QString::fromStdString(value.isString() ? value.toString() : std::string()));
        const QColor text = m_color.lightness() > 128 ? Qt::black : Qt::white;
        m_button->setText(m_color.name());
        m_button->setStyleSheet(QString("background:%1; color:%2;").arg(m_color.name(), text.name()));
    }

private:
    QPushButton *m_button;
    QColor m_color;
};

// Lists, ranges and structured values: one line of flow YAML, read as the loader reads it.
class YamlEditor : public ParamEditor
{
public:
    YamlEditor(const ParamSpec &spec, QWidget *parent) : ParamEditor(spec, parent), m_line(new QLineEdit(this))
    {
        tightRow(this)->addWidget(m_line);
        m_line->setFont(QFont("monospace"));
        connect(m_line, &QLineEdit::editingFinished, this, [this] {
            std::string error;
            auto value = parseValueText(m_line->text().toStdString(), &error);
            if (!value)
                emit invalid(QString::fromStdString(error));
            else
                emit edited(*value);
            emit editFinished();
        });
    }
    void setValue(const Value &value) override
    {
        QSignalBlocker block(m_line);
        m_line->setText(QString::fromStdString(toFlowYaml(value)));
        m_line->setCursorPosition(0);
    }

private:
    QLineEdit *m_line;
};

} // namespace

ParamEditor *ParamEditor::create(const ParamSpec &spec, QWidget *parent)
{
    switch (spec.kind) {
    case ParamKind::Number:
    case ParamKind::Integer: return new NumberEditor(spec, parent);
    case ParamKind::Bool: return new BoolEditor(spec, parent);
    case ParamKind::Enum: return new EnumEditor(spec, parent);
    case ParamKind::String: return new StringEditor(spec, parent);
    case ParamKind::Color: return new ColorEditor(spec, parent);
    case ParamKind::NumberList:
    case ParamKind::StringList:
    case ParamKind::ColorList:
    case ParamKind::Range:
    case ParamKind::RecordList:
    case ParamKind::Record: return new YamlEditor(spec, parent);
    }
    return new YamlEditor(spec, parent);
}

} // namespace grove
