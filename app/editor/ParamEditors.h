// Widgets that edit one param, chosen by its ParamKind (never by node type).
#pragma once

#include "core/NodeDescriptor.h"
#include "core/Value.h"

#include <QWidget>

namespace grove {

class ParamEditor : public QWidget
{
    Q_OBJECT

public:
    explicit ParamEditor(const ParamSpec &spec, QWidget *parent = nullptr) : QWidget(parent), m_spec(spec) {}
    // Shows a value from the document without emitting `edited`.
    virtual void setValue(const Value &value) = 0;
    const ParamSpec &spec() const { return m_spec; }

    // The widget for a spec's kind: sliders for numbers, a YAML line for lists and the like.
    static ParamEditor *create(const ParamSpec &spec, QWidget *parent = nullptr);

signals:
    void edited(const Value &value);
    // The user let go (slider released, field left, a discrete choice made): edits after this
    // are a new undo step.
    void editFinished();
    // Text that does not parse: the message to show next to the editor.
    void invalid(const QString &message);

protected:
    ParamSpec m_spec;
};

} // namespace grove
