// The World dock: the graph's name, notes, world size, seed, chunk size, endless switch and wrap, each
// edit an undoable command.
#pragma once

#include "core/graph/Graph.h"

#include <QWidget>

#include <functional>
#include <optional>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace grove {

class Document;
class FieldGuard;
class NumberField;
struct ParamSpec;

class WorldPanel : public QWidget
{
    Q_OBJECT

public:
    explicit WorldPanel(Document *document, QWidget *parent = nullptr);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct NumberRow
    {
        NumberField *field;
        QLabel *error;
    };
    // `emptyValue`: what an empty box means (the chunk's 0, off), or nothing: empty is refused.
    NumberRow addNumber(const QString &label, const char *name, const ParamSpec &spec,
                        std::function<void(World &, double)> apply, const QString &what,
                        std::optional<double> emptyValue = std::nullopt);
    void setEndless(bool endless);
    void refresh(bool all = true);
    void commit(const QString &what, std::string name, std::string notes, World world);

    Document *m_document;
    FieldGuard *m_guard;
    QFormLayout *m_form;
    QLineEdit *m_name;
    QPlainTextEdit *m_notes;
    NumberRow m_width{}, m_height{}, m_seed{}, m_chunk{};
    NumberRow m_depth{};  // world.depth: a volume's third side; empty or 0: a 2D world
    QCheckBox *m_endless;
    QComboBox *m_wrap;  // world.wrap: off, both axes, x or y
    World m_shown;  // the world the number boxes show
    double m_finiteWidth = 0, m_finiteHeight = 0;  // the size before Endless was ticked, for unticking
};

} // namespace grove
