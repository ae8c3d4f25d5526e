// One small editor class per scalar ParamKind family, built from the spec's ranges and enum values;
// lists and records are in ListEditors.cpp.
#include "inspector/ParamEditors.h"

#include "inspector/FieldBoxes.h"
#include "inspector/ListEditors.h"
#include "inspector/NumberField.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>

#include <algorithm>
#include <cmath>
#include <limits>

namespace grove {

namespace {

constexpr int kSliderSteps = 1000;

// A slider over the spec's soft range and a box that takes any number; with allowInfinite, a
// "no limit" toggle stands for the infinite bound.
class NumberEditor : public ParamEditor
{
public:
    NumberEditor(const ParamSpec &spec, QWidget *parent)
        : ParamEditor(spec, parent), m_slider(new QSlider(Qt::Horizontal, this)), m_field(new NumberField(this))
    {
        auto *row = tightRow(this);
        row->addWidget(m_slider, 1);
        row->addWidget(m_field);
        // the box holds a number (eleven characters); the slider takes the rest of the row, so a
        // drag moves the value in steps a hand can aim (the box used to take three quarters)
        m_field->setMaximumWidth(m_field->fontMetrics().horizontalAdvance(QStringLiteral("-0.000000001")) + 16);
        // never a sliver: beside a box and "no limit" in a narrow Inspector it was 10 px, and read
        // as a checkbox; the box gives up room first (it scrolls a long number)
        m_slider->setMinimumWidth(34);
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
            m_field->setNumber(v);
            emit edited(Value(v));
        });
        connect(m_slider, &QSlider::sliderReleased, this, &ParamEditor::editFinished);
        connect(m_field, &QLineEdit::editingFinished, this, [this] {
            QString error;
            if (auto v = m_field->number(&error))
                emit edited(Value(*v));
            else
                emit invalid(error);
            emit editFinished();
        });
        if (spec.allowInfinite) {
            // The open end is the default's side (a lower bound opens to -inf).
            m_openSign = spec.defaultValue.toNumber() < 0 ? -1.0 : 1.0;
            m_open = new QCheckBox(tr("no limit"), this);
            m_open->setObjectName("noLimit");
            m_open->setToolTip(m_openSign < 0 ? tr("No lower limit (-inf)") : tr("No upper limit (inf)"));
            row->addWidget(m_open);
            connect(m_open, &QCheckBox::toggled, this, [this](bool open) {
                const double inf = std::numeric_limits<double>::infinity();
                emit edited(Value(open ? m_openSign * inf : (m_openSign < 0 ? m_spec.softMin : m_spec.softMax)));
                emit editFinished();
            });
        }
    }

    void setValue(const Value &value) override
    {
        const double v = value.toNumber();
        QSignalBlocker b1(m_slider);
        m_field->setNumber(v);
        m_slider->setValue(toSlider(v));
        if (m_open) {
            QSignalBlocker b2(m_open);
            m_open->setChecked(std::isinf(v));
            m_field->setEnabled(!std::isinf(v));
            m_slider->setEnabled(!std::isinf(v));
        }
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
    NumberField *m_field;
    QCheckBox *m_open = nullptr;
    double m_openSign = 1;
    bool m_integer = false;
};

// [low, high]: two boxes; either one applies both.
class RangeEditor : public ParamEditor
{
public:
    RangeEditor(const ParamSpec &spec, QWidget *parent)
        : ParamEditor(spec, parent), m_low(new NumberField(this)), m_high(new NumberField(this))
    {
        m_low->setObjectName("low");
        m_high->setObjectName("high");
        auto *row = tightRow(this);
        row->addWidget(m_low, 1);
        row->addWidget(new QLabel(tr("to"), this));
        row->addWidget(m_high, 1);
        for (NumberField *f : {m_low, m_high})
            connect(f, &QLineEdit::editingFinished, this, [this] {
                QString error;
                auto low = m_low->number(&error);
                auto high = low ? m_high->number(&error) : std::nullopt;
                if (low && high)
                    emit edited(Value(ValueList{*low, *high}));
                else
                    emit invalid(error);
                emit editFinished();
            });
    }

    void setValue(const Value &value) override
    {
        const ValueList &list = value.isList() ? value.toList() : ValueList{};
        m_low->setNumber(list.size() == 2 ? list[0].toNumber() : 0);
        m_high->setNumber(list.size() == 2 ? list[1].toNumber() : 0);
    }

private:
    NumberField *m_low, *m_high;
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
        m_line->setText(QString::fromStdString(value.isString() ? value.toString() : std::string()));
        m_line->setCursorPosition(0);  // a long name shows its start
    }

private:
    QLineEdit *m_line;
};

// A file the node reads: typed, or chosen in a file dialog; stored relative to the graph's
// folder (so the graph and its inputs move together), absolute when the graph has no folder yet.
class FileEditor : public ParamEditor
{
public:
    FileEditor(const ParamSpec &spec, const QString &baseDir, QWidget *parent)
        : ParamEditor(spec, parent), m_line(new QLineEdit(this)), m_button(new QPushButton(tr("Choose…"), this)), m_baseDir(baseDir)
    {
        auto *row = tightRow(this);
        row->addWidget(m_line, 1);
        row->addWidget(m_button);
        m_line->setObjectName("file");  // shows its end, the file's own name, where the path is long
        m_line->setPlaceholderText(tr("a file beside the graph"));
        m_button->setToolTip(tr("Choose the file; it is stored relative to the graph's folder"));
        connect(m_line, &QLineEdit::editingFinished, this, [this] {
            emit edited(Value(m_line->text().toStdString()));
            emit editFinished();
        });
        connect(m_button, &QPushButton::clicked, this, [this] {
            const QString start = m_line->text().isEmpty() ? m_baseDir : QDir(m_baseDir).absoluteFilePath(m_line->text());
            const QString picked = QFileDialog::getOpenFileName(
                this, tr("Choose %1").arg(QString::fromStdString(m_spec.name)), start,
                tr("Inputs (*.png *.r16 *.raw *.tmj *.json *.geojson *.csv);;All files (*)"));
            if (picked.isEmpty())
                return;
            const QString stored = m_baseDir.isEmpty() ? picked : QDir(m_baseDir).relativeFilePath(picked);
            m_line->setText(stored);
            emit edited(Value(stored.toStdString()));
            emit editFinished();
        });
    }
    void setValue(const Value &value) override
    {
        m_line->setText(QString::fromStdString(value.isString() ? value.toString() : std::string()));
        m_line->setToolTip(m_line->text());  // the whole path, where the box shows its end
    }

private:
    QLineEdit *m_line;
    QPushButton *m_button;
    QString m_baseDir;
};

class ColorEditor : public ParamEditor
{
public:
    ColorEditor(const ParamSpec &spec, QWidget *parent) : ParamEditor(spec, parent), m_button(new QPushButton(this))
    {
        tightRow(this)->addWidget(m_button);
        m_button->setMinimumWidth(110);
        connect(m_button, &QPushButton::clicked, this, [this] {
            pickColor(this, m_color, tr("Choose %1").arg(QString::fromStdString(m_spec.name)), [this](const QColor &c) {
                if (c != m_color) {
                    emit edited(Value(c.name().toStdString()));
                    emit editFinished();
                }
            });
        });
    }
    void setValue(const Value &value) override
    {
        m_color = QColor(QString::fromStdString(value.isString() ? value.toString() : std::string()));
        paintSwatch(m_button, m_color);
    }

private:
    QPushButton *m_button;
    QColor m_color;
};

} // namespace

ParamEditor *ParamEditor::create(const ParamSpec &spec, QWidget *parent, const QString &baseDir)
{
    if (spec.role == ParamRole::FilePath)
        return new FileEditor(spec, baseDir, parent);
    switch (spec.kind) {
    case ParamKind::Number:
    case ParamKind::Integer: return new NumberEditor(spec, parent);
    case ParamKind::Bool: return new BoolEditor(spec, parent);
    case ParamKind::Enum: return new EnumEditor(spec, parent);
    case ParamKind::String: return new StringEditor(spec, parent);
    case ParamKind::Color: return new ColorEditor(spec, parent);
    case ParamKind::Range: return new RangeEditor(spec, parent);
    case ParamKind::NumberList:
    case ParamKind::StringList:
    case ParamKind::ColorList:
    case ParamKind::RecordList:
    case ParamKind::Record: return createListEditor(spec, parent);
    case ParamKind::AreaList: return createAreaListEditor(spec, parent);
    case ParamKind::PathList: return createPathListEditor(spec, parent);
    }
    return createListEditor(spec, parent);
}

} // namespace grove
