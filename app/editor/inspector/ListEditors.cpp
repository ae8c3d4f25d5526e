// List and record editors: RowListEditor keeps one row of widgets per item; each kind says how a
// row looks, how it reads back, and what "Add" appends. Every action emits the whole new value.
#include "inspector/ListEditors.h"

#include "inspector/FieldBoxes.h"
#include "inspector/NumberField.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace grove {

namespace {

QPushButton *smallButton(const QString &text, const QString &tip, QWidget *parent)
{
    auto *b = new QPushButton(text, parent);
    b->setToolTip(tip);
    b->setFixedWidth(26);
    b->setFocusPolicy(Qt::TabFocus);
    return b;
}

QString indexed(const std::string &name, int i)
{
    return QString::fromStdString(name) + ":" + QString::number(i);
}

// A field of a record or a list item: a line for strings, a number box for numbers.
class RowListEditor : public ParamEditor
{
public:
    RowListEditor(const ParamSpec &spec, QWidget *parent, const QString &addText)
        : ParamEditor(spec, parent), m_rows(new QVBoxLayout)
    {
        auto *column = m_column = new QVBoxLayout(this);
        column->setContentsMargins(0, 0, 0, 0);
        column->setSpacing(2);
        m_rows->setSpacing(2);
        column->addLayout(m_rows);
        auto *add = new QPushButton(addText, this);
        add->setObjectName("add");
        add->setFocusPolicy(Qt::TabFocus);
        auto *addRow = new QHBoxLayout;
        addRow->addWidget(add);
        addRow->addStretch();
        column->addLayout(addRow);
        connect(add, &QPushButton::clicked, this, [this] { addItem(); });
    }

    void setValue(const Value &value) override
    {
        const ValueList items = value.isList() ? value.toList() : ValueList{};
        // The same list again (a field left unchanged) keeps the blank rows Add made to type into.
        const int n = static_cast<int>(items.size());
        setRowCount(items == m_items ? std::max(n, rowCount()) : n);
        m_items = items;
        for (int i = 0; i < static_cast<int>(m_items.size()); ++i)
            fillRow(i, m_items[static_cast<size_t>(i)]);
    }

protected:
    // Makes row i's widgets (named "<field>:i") in `row`; they call commit() when edited.
    virtual void makeRow(int i, QWidget *row, QHBoxLayout *layout) = 0;
    virtual void fillRow(int i, const Value &item) = 0;
    // Row i's item; nothing with *error empty for a row left blank (skipped).
    virtual std::optional<Value> readRow(int i, QString *error) = 0;
    // Appends an item: by default an empty row to type into.
    virtual void addItem()
    {
        setRowCount(rowCount() + 1);
        if (auto *box = m_rowWidgets.back()->findChild<QLineEdit *>())
            box->setFocus();
    }

    void setHeader(QWidget *header) { m_column->insertWidget(0, header); }
    bool reorderable() const { return m_spec.role != ParamRole::Pins; }
    int rowCount() const { return static_cast<int>(m_rowWidgets.size()); }
    QWidget *row(int i) const { return m_rowWidgets[static_cast<size_t>(i)]; }
    const ValueList &items() const { return m_items; }

    void commitItems(const ValueList &items)
    {
        emit edited(Value(items));
        emit editFinished();
    }

    // Reads every row back and applies the list, or says why it cannot.
    void commit()
    {
        ValueList items;
        for (int i = 0; i < rowCount(); ++i) {
            QString error;
            auto item = readRow(i, &error);
            if (!item && !error.isEmpty()) {
                emit invalid(tr("item %1: %2").arg(i).arg(error));
                return;
            }
            if (item)
                items.push_back(*item);
        }
        commitItems(items);
    }

private:
    void setRowCount(int n)
    {
        while (rowCount() > n) {
            QWidget *w = m_rowWidgets.back();
            m_rowWidgets.pop_back();
            w->hide();
            w->setParent(nullptr);  // out of the editor now, so a new row i is the only "…:i"
            w->deleteLater();       // later: it may hold the button being clicked
        }
        const int first = rowCount();
        for (int i = first; i < n; ++i) {
            auto *w = new QWidget(this);
            auto *layout = tightRow(w, 4);
            makeRow(i, w, layout);
            auto *up = smallButton("↑", tr("Move up"), w);
            auto *down = smallButton("↓", tr("Move down"), w);
            auto *remove = smallButton("✕", tr("Remove"), w);
            up->setObjectName(indexed("up", i));
            down->setObjectName(indexed("down", i));
            remove->setObjectName(indexed("remove", i));
            layout->addWidget(up);
            layout->addWidget(down);
            layout->addWidget(remove);
            // a pin's place in the list means nothing to a designer; its x and y need the room
            up->setVisible(reorderable());
            down->setVisible(reorderable());
            connect(up, &QPushButton::clicked, this, [this, i] { move(i, i - 1); });
            connect(down, &QPushButton::clicked, this, [this, i] { move(i, i + 1); });
            connect(remove, &QPushButton::clicked, this, [this, i] {
                ValueList items = m_items;
                if (i < static_cast<int>(items.size())) {
                    items.erase(items.begin() + i);
                    commitItems(items);
                } else {
                    setRowCount(static_cast<int>(items.size()));  // a blank row never applied
                }
            });
            m_rows->addWidget(w);
            m_rowWidgets.push_back(w);
        }
        for (int i = 0; i < rowCount(); ++i) {
            row(i)->findChild<QPushButton *>(indexed("up", i))->setEnabled(i > 0);
            row(i)->findChild<QPushButton *>(indexed("down", i))->setEnabled(i + 1 < n);
        }
        if (n > first)
            emit widgetsAdded(this);
    }

    void move(int from, int to)
    {
        ValueList items = m_items;
        if (from < 0 || to < 0 || from >= static_cast<int>(items.size()) || to >= static_cast<int>(items.size()))
            return;
        std::swap(items[static_cast<size_t>(from)], items[static_cast<size_t>(to)]);
        commitItems(items);
    }

    QVBoxLayout *m_column = nullptr;
    QVBoxLayout *m_rows;
    std::vector<QWidget *> m_rowWidgets;
    ValueList m_items;  // the document's list, as last shown
};

// Numbers or names: one box per item; a blank box is left out.
class ScalarListEditor : public RowListEditor
{
public:
    ScalarListEditor(const ParamSpec &spec, QWidget *parent)
        : RowListEditor(spec, parent, spec.kind == ParamKind::NumberList ? tr("Add value") : tr("Add name")),
          m_kind(spec.kind == ParamKind::NumberList ? ParamKind::Number : ParamKind::String)
    {
    }

protected:
    void makeRow(int i, QWidget *row, QHBoxLayout *layout) override
    {
        QLineEdit *box = fieldBox(m_kind, {}, row);
        box->setObjectName(indexed("item", i));
        layout->addWidget(box, 1);
        connect(box, &QLineEdit::editingFinished, this, [this] { commit(); });
    }
    void fillRow(int i, const Value &item) override { showField(box(i), &item); }
    std::optional<Value> readRow(int i, QString *error) override
    {
        if (box(i)->text().trimmed().isEmpty())
            return std::nullopt;
        return readField(box(i), error);
    }

private:
    QLineEdit *box(int i) const { return row(i)->findChild<QLineEdit *>(indexed("item", i)); }
    ParamKind m_kind;
};

// Colours: a swatch per item; a click picks a new colour, Add picks one to append.
class ColorListEditor : public RowListEditor
{
public:
    ColorListEditor(const ParamSpec &spec, QWidget *parent) : RowListEditor(spec, parent, tr("Add colour")) {}

protected:
    void makeRow(int i, QWidget *row, QHBoxLayout *layout) override
    {
        auto *swatch = new QPushButton(row);
        swatch->setObjectName(indexed("item", i));
        layout->addWidget(swatch, 1);
        connect(swatch, &QPushButton::clicked, this, [this, i] {
            pickColor(this, color(i), tr("Choose a colour"), [this, i](const QColor &c) {
                ValueList list = items();
                if (i < static_cast<int>(list.size())) {
                    list[static_cast<size_t>(i)] = Value(c.name().toStdString());
                    commitItems(list);
                }
            });
        });
    }
    void fillRow(int i, const Value &item) override
    {
        paintSwatch(row(i)->findChild<QPushButton *>(indexed("item", i)),
                    QColor(QString::fromStdString(item.isString() ? item.toString() : std::string())));
    }
    std::optional<Value> readRow(int i, QString *) override { return items()[static_cast<size_t>(i)]; }
    void addItem() override
    {
        pickColor(this, rowCount() ? color(rowCount() - 1) : QColor(Qt::gray), tr("Add a colour"),
                  [this](const QColor &c) {
                      ValueList list = items();
                      list.push_back(Value(c.name().toStdString()));
                      commitItems(list);
                  });
    }

private:
    QColor color(int i) const
    {
        const Value &v = items()[static_cast<size_t>(i)];
        return QColor(QString::fromStdString(v.isString() ? v.toString() : std::string()));
    }
};

// A field's share of a record row: names and required numbers (a pin's x and y) get twice the
// room of the rest, so what identifies a record stays readable in a narrow Inspector.
int fieldStretch(const RecordField &f)
{
    return (f.kind == ParamKind::String && !f.optional) || f.required ? 2 : 1;
}

// A column header that ends in "…" where its column is narrower than its name (a pin's five
// fields in a narrow Inspector), the whole name in its tooltip.
class HeaderLabel : public QLabel
{
public:
    HeaderLabel(const QString &text, QWidget *parent) : QLabel(text, parent)
    {
        setStyleSheet("color: gray;");
        setMinimumWidth(1);  // a header never widens the Inspector (pins have five fields)
        setToolTip(text);
    }
    QString shownText() const { return fontMetrics().elidedText(text(), Qt::ElideRight, contentsRect().width()); }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        p.setPen(palette().color(foregroundRole()));
        p.drawText(contentsRect(), int(alignment()), shownText());
    }
};

// Records (weighted types): a box per field; Add appends a record named so that it is unique.
class RecordListEditor : public RowListEditor
{
public:
    RecordListEditor(const ParamSpec &spec, QWidget *parent)
        : RowListEditor(spec, parent, tr("Add %1").arg(QString::fromStdString(spec.recordNoun.empty() ? "item"
                                                                                                      : spec.recordNoun)))
    {
        // The field names over their columns, as a table's header.
        auto *header = new QWidget(this);
        auto *layout = tightRow(header, 4);
        for (const RecordField &f : spec.fields) {
            auto *label = new HeaderLabel(QString::fromStdString(f.name), header);
            label->setObjectName(QString::fromStdString("header:" + f.name));
            layout->addWidget(label, fieldStretch(f));
        }
        const int buttons = reorderable() ? 3 : 1;
        layout->addSpacing(buttons * 26 + buttons * layout->spacing());  // over the move and remove buttons
        setHeader(header);
    }

protected:
    void makeRow(int i, QWidget *row, QHBoxLayout *layout) override
    {
        for (const RecordField &f : m_spec.fields) {
            QLineEdit *box = fieldBox(f.kind, QString::fromStdString(f.name), row);
            box->setObjectName(indexed(f.name, i));
            box->setToolTip(QString::fromStdString(f.name));
            // narrow boxes rather than an Inspector wider than its dock: with five fields (a pin's)
            // the boxes' own minimum pushed every other param's fields out of sight
            box->setMinimumWidth(18);
            layout->addWidget(box, fieldStretch(f));
            connect(box, &QLineEdit::editingFinished, this, [this] { commit(); });
        }
    }
    void fillRow(int i, const Value &item) override
    {
        for (const RecordField &f : m_spec.fields) {
            QLineEdit *box = row(i)->findChild<QLineEdit *>(indexed(f.name, i));
            // an optional field left out shows empty (not 0 or ""), so saving the row keeps it out
            if (f.optional && !item.find(f.name))
                box->clear();
            else
                showField(box, item.find(f.name));
        }
    }
    std::optional<Value> readRow(int i, QString *error) override
    {
        ValueMap record;
        for (const RecordField &f : m_spec.fields) {
            QLineEdit *box = row(i)->findChild<QLineEdit *>(indexed(f.name, i));
            if (f.optional && box->text().trimmed().isEmpty())
                continue;  // absent stays absent: the hash picks it
            auto v = readField(box, error);
            if (!v) {
                *error = QString::fromStdString(f.name) + " " + *error;
                return std::nullopt;
            }
            record.emplace_back(f.name, *v);
        }
        return Value(record);
    }
    void addItem() override
    {
        ValueList list = items();
        ValueMap record;
        for (const RecordField &f : m_spec.fields) {
            if (f.optional)
                continue;
            if (f.kind == ParamKind::String && (f.required || f.name == m_spec.uniqueField))
                record.emplace_back(f.name, Value(freshName(f.name)));
            else if (f.defaultValue.isNull() && f.kind != ParamKind::String)
                // a required number without a default (a pin's x): a valid start the designer then edits
                record.emplace_back(f.name, Value(std::clamp(0.0, f.min, f.max)));
            else
                record.emplace_back(f.name, f.defaultValue);
        }
        list.push_back(Value(record));
        commitItems(list);
    }

private:
    // "type3": the record noun and the first number no record of the list has under `field`.
    std::string freshName(const std::string &field) const
    {
        const std::string stem = m_spec.recordNoun.empty() ? field : m_spec.recordNoun;
        for (size_t n = items().size() + 1;; ++n) {
            const std::string name = stem + std::to_string(n);
            bool taken = false;
            for (const Value &item : items())
                taken = taken || (item.find(field) && item.find(field)->toString() == name);
            if (!taken)
                return name;
        }
    }
};

// Names from a fixed offer: a tick box each; the list keeps the offer's order.
class ChoiceListEditor : public ParamEditor
{
public:
    ChoiceListEditor(const ParamSpec &spec, const std::vector<std::string> &offered, QWidget *parent)
        : ParamEditor(spec, parent), m_extra(new QLabel(this))
    {
        auto *column = new QVBoxLayout(this);
        column->setContentsMargins(0, 0, 0, 0);
        column->setSpacing(2);
        for (const std::string &name : offered) {
            auto *box = new QCheckBox(QString::fromStdString(name), this);
            box->setObjectName(QString::fromStdString("choice:" + name));
            column->addWidget(box);
            m_boxes.emplace_back(name, box);
            connect(box, &QCheckBox::toggled, this, [this] { commit(); });
        }
        m_extra->setStyleSheet("color: gray;");
        m_extra->setWordWrap(true);
        column->addWidget(m_extra);
    }

    void setValue(const Value &value) override
    {
        m_items = value.isList() ? value.toList() : ValueList{};
        for (auto &[name, box] : m_boxes) {
            QSignalBlocker block(box);
            box->setChecked(std::find(m_items.begin(), m_items.end(), Value(name)) != m_items.end());
        }
        QStringList extra;
        for (const Value &v : unoffered())
            extra << QString::fromStdString(v.toString());
        m_extra->setText(tr("Also listed, but not offered upstream: %1").arg(extra.join(", ")));
        m_extra->setVisible(!extra.isEmpty());
    }

private:
    ValueList unoffered() const
    {
        ValueList out;
        for (const Value &v : m_items)
            if (std::none_of(m_boxes.begin(), m_boxes.end(), [&](const auto &b) { return Value(b.first) == v; }))
                out.push_back(v);
        return out;
    }

    void commit()
    {
        ValueList items;
        for (const auto &[name, box] : m_boxes)
            if (box->isChecked())
                items.push_back(Value(name));
        for (const Value &v : unoffered())
            items.push_back(v);
        emit edited(Value(items));
        emit editFinished();
    }

    std::vector<std::pair<std::string, QCheckBox *>> m_boxes;
    QLabel *m_extra;
    ValueList m_items;
};

} // namespace

ParamEditor *createChoiceList(const ParamSpec &spec, const std::vector<std::string> &offered, QWidget *parent)
{
    return new ChoiceListEditor(spec, offered, parent);
}

ParamEditor *createListEditor(const ParamSpec &spec, QWidget *parent)
{
    switch (spec.kind) {
    case ParamKind::ColorList: return new ColorListEditor(spec, parent);
    case ParamKind::RecordList: return new RecordListEditor(spec, parent);
    case ParamKind::Record: return createRecordEditor(spec, parent);
    default: return new ScalarListEditor(spec, parent);
    }
}

} // namespace grove
