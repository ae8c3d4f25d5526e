// Widgets that edit one param, chosen by its ParamKind (never by node type).
#pragma once

#include "core/graph/NodeDescriptor.h"
#include "core/base/Value.h"

#include <QWidget>

namespace grove {

class ParamEditor : public QWidget
{
    Q_OBJECT

public:
    explicit ParamEditor(const ParamSpec &spec, QWidget *parent = nullptr) : QWidget(parent), m_spec(spec) {}
    // Shows a value from the document without emitting `edited`; drops anything typed and not applied.
    virtual void setValue(const Value &value) = 0;
    const ParamSpec &spec() const { return m_spec; }

    // The widget for a spec's kind: a slider and a box for numbers, rows for lists, boxes for a range;
    // a file path (role) gets a "Choose…" button whose pick is written relative to `baseDir`, the
    // graph's folder.
    static ParamEditor *create(const ParamSpec &spec, QWidget *parent = nullptr, const QString &baseDir = {});

signals:
    // A whole new value for the param (the Inspector checks it against the spec before applying it).
    void edited(const Value &value);
    // The user let go (slider released, field left, a discrete choice made): edits after this
    // are a new undo step.
    void editFinished();
    // Text that does not parse: the message to show under the editor.
    void invalid(const QString &message);
    // New child widgets appeared (a list grew a row): the Inspector guards them as it did the rest.
    void widgetsAdded(QWidget *root);

protected:
    ParamSpec m_spec;
};

} // namespace grove
