// Canvas colours from descriptors, and notes reflowed for a label.
#include "common/EditorStyle.h"

#include "core/graph/NodeRegistry.h"

#include <QStringList>

#include <algorithm>
#include <vector>

namespace grove::style {

QColor categoryColor(const NodeRegistry &registry, const std::string &category)
{
    std::vector<std::string> categories;
    for (const auto &d : registry.all())
        if (std::find(categories.begin(), categories.end(), d->category) == categories.end())
            categories.push_back(d->category);
    auto it = std::find(categories.begin(), categories.end(), category);
    if (it == categories.end())
        return QColor(110, 110, 110);
    const int index = static_cast<int>(it - categories.begin());
    static const int hues[] = {205, 280, 35, 130, 350, 175, 55, 240};
    return QColor::fromHsv(hues[index % 8], 120, 150);
}

QColor dataTypeColor(DataType type)
{
    switch (type) {
    case DataType::Field: return QColor(160, 170, 185);
    case DataType::Labels: return QColor(190, 120, 230);
    case DataType::Mask: return QColor(240, 170, 60);
    case DataType::Points: return QColor(90, 200, 110);
    }
    return Qt::white;
}

QString reflowed(const std::string &notes)
{
    QStringList paragraphs = QString::fromStdString(notes).trimmed().split("\n\n");
    for (QString &p : paragraphs)
        p = p.simplified();
    return paragraphs.join("\n\n");
}

} // namespace grove::style
