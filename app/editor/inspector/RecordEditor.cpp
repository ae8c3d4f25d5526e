// RecordEditor: a nullable record param (a special type and its count): "none", or a box per field.
#include "inspector/FieldBoxes.h"
#include "inspector/ListEditors.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QSignalBlocker>

namespace grove {

namespace {

// A record or nothing: "none" plus a box per field.
class RecordEditor : public ParamEditor
{
public:
    RecordEditor(const ParamSpec &spec, QWidget *parent) : ParamEditor(spec, parent), m_none(new QCheckBox(tr("none"), this))
    {
        auto *layout = tightRow(this, 4);
        m_none->setObjectName("none");
        layout->addWidget(m_none);
        for (const RecordField &f : spec.fields) {
            QLineEdit *box = fieldBox(f.kind, QString::fromStdString(f.name), this);
            box->setObjectName(QString::fromStdString(f.name));
            box->setToolTip(QString::fromStdString(f.name));
            layout->addWidget(box, f.kind == ParamKind::String ? 2 : 1);
            m_boxes.push_back(box);
            connect(box, &QLineEdit::editingFinished, this, [this] { commit(); });
        }
        connect(m_none, &QCheckBox::toggled, this, [this](bool none) {
            for (QLineEdit *box : m_boxes)
                box->setEnabled(!none);
            if (none) {
                emit edited(Value());
                emit editFinished();
            } else {
                commit();
            }
        });
    }

    void setValue(const Value &value) override
    {
        QSignalBlocker block(m_none);
        m_none->setChecked(value.isNull());
        for (size_t i = 0; i < m_boxes.size(); ++i) {
            const RecordField &f = m_spec.fields[i];
            const Value *v = value.isMap() ? value.find(f.name) : &f.defaultValue;
            showField(m_boxes[i], v);
            m_boxes[i]->setEnabled(!value.isNull());
        }
    }

private:
    void commit()
    {
        if (m_none->isChecked())
            return;
        ValueMap record;
        for (size_t i = 0; i < m_boxes.size(); ++i) {
            QString error;
            auto v = readField(m_boxes[i], &error);
            if (!v) {
                emit invalid(QString::fromStdString(m_spec.fields[i].name) + " " + error);
                return;
            }
            record.emplace_back(m_spec.fields[i].name, *v);
        }
        emit edited(Value(record));
        emit editFinished();
    }

    QCheckBox *m_none;
    std::vector<QLineEdit *> m_boxes;
};

} // namespace

ParamEditor *createRecordEditor(const ParamSpec &spec, QWidget *parent)
{
    return new RecordEditor(spec, parent);
}

} // namespace grove
