// image: a raster file (PNG, or a 16-bit RAW heightmap) as a field, laid on the world by a
// rectangle and sampled bilinearly.
#include "ParamBuilders.h"

#include "core/graph/EvalContext.h"
#include "core/base/FileInput.h"
#include "core/formats/ImageFile.h"
#include "core/graph/NodeRegistry.h"

#include <algorithm>
#include <cmath>

namespace grove {

namespace {

constexpr ChoiceTable<ImageChannel, 5> kChannels{{{ImageChannel::Grey, "grey"},
                                                  {ImageChannel::Red, "red"},
                                                  {ImageChannel::Green, "green"},
                                                  {ImageChannel::Blue, "blue"},
                                                  {ImageChannel::Alpha, "alpha"}}};

class ImageField final : public Field
{
public:
    ImageField(ImageSamples image, double left, double top, double width, double height, double low, double high,
               double outside)
        : m_image(std::move(image)), m_left(left), m_top(top), m_width(width), m_height(height), m_low(low),
          m_span(high - low), m_outside(outside), m_upper(std::max({low, high, outside}))
    {
    }

    double at(double x, double y) const override
    {
        const double u = (x - m_left) / m_width, v = (y - m_top) / m_height;
        if (!(u >= 0 && u < 1 && v >= 0 && v < 1))
            return m_outside;  // off the rectangle (and NaN)
        // pixel centres sit at (i + 0.5) / W; between the outermost centres and the edge, the
        // edge pixels hold
        const int w = m_image.width, h = m_image.height;
        const double px = std::clamp(u * w - 0.5, 0.0, static_cast<double>(w - 1));
        const double py = std::clamp(v * h - 0.5, 0.0, static_cast<double>(h - 1));
        const int x0 = static_cast<int>(px), y0 = static_cast<int>(py);
        const int x1 = std::min(x0 + 1, w - 1), y1 = std::min(y0 + 1, h - 1);
        const double fx = px - x0, fy = py - y0;
        const double a = sample(x0, y0), b = sample(x1, y0), c = sample(x0, y1), d = sample(x1, y1);
        const double top = a + (b - a) * fx, bottom = c + (d - c) * fx;
        return m_low + (top + (bottom - top) * fy) / m_image.maxValue * m_span;
    }

    double upperBound() const override { return m_upper; }

private:
    double sample(int x, int y) const
    {
        return m_image.values[static_cast<std::size_t>(y) * static_cast<std::size_t>(m_image.width) + static_cast<std::size_t>(x)];
    }

    ImageSamples m_image;
    double m_left, m_top, m_width, m_height, m_low, m_span, m_outside, m_upper;
};

// A RAW heightmap has no header: only then do its width and height matter.
bool readsRaw(const ValueMap &params)
{
    const std::string *path = build::paramText(params, "path");
    return path && (hasExtension(*path, ".r16") || hasExtension(*path, ".raw"));
}

} // namespace

void registerImage(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "image";
    d.displayName = "Image";
    d.category = "Fields";
    d.description = "A raster file as a field: a PNG (8 or 16 bits; grey, or one channel of a colour image) or a 16-bit "
                    "little-endian RAW heightmap (.r16, .raw: World Machine, Gaea, Unity terrains). It covers the "
                    "rectangle left, top, width, height of the world (width or height 0: the world's), sampled "
                    "bilinearly between pixel centres; a sample maps from [0, full scale] onto [min, max]. Outside "
                    "the rectangle the field is `outside`. The path is relative to the graph file; when the file "
                    "changes, the node evaluates again.";
    d.outputs = {port("field", DataType::Field).describe("min + sample / full scale * (max - min); `outside` off the rectangle")};
    d.params = {
        text("path").role(ParamRole::FilePath)
            .describe("the image file, relative to the graph file: .png, or .r16 / .raw (16-bit little endian)"),
        choice("channel", kChannels, ImageChannel::Grey)
            .describe("what a PNG gives: grey (a colour image's Rec. 601 luma), or one channel (alpha: 1 where the image has none)"),
        integer("raw_width").defaultValue(0).min(0).max(65536).soft(0, 8192).mattersWhen(readsRaw)
            .describe("a RAW file's width in samples; 0 with raw_height 0: a square, its side from the file's size"),
        integer("raw_height").defaultValue(0).min(0).max(65536).soft(0, 8192).mattersWhen(readsRaw)
            .describe("a RAW file's height in samples"),
        number("left").defaultValue(0).min(-1e7).max(1e7).soft(0, 1000).describe("where the image's left edge lies in the world"),
        number("top").defaultValue(0).min(-1e7).max(1e7).soft(0, 1000).describe("where the image's top edge lies in the world"),
        number("width").defaultValue(0).min(0).max(1e7).soft(0, 1000)
            .describe("how wide the image lies in the world; 0: the world's width"),
        number("height").defaultValue(0).min(0).max(1e7).soft(0, 1000)
            .describe("how tall the image lies in the world; 0: the world's height"),
        number("min").defaultValue(0).min(-1e12).max(1e12).soft(0, 1).describe("the field where a sample is 0"),
        number("max").defaultValue(1).min(-1e12).max(1e12).soft(0, 1).describe("the field where a sample is full scale (255 or 65535)"),
        number("outside").defaultValue(0).min(-1e12).max(1e12).soft(0, 1).describe("the field off the image's rectangle"),
    };
    d.checkParams = [](const ValueMap &params, ParamIssues &issues) {
        const std::string *path = paramText(params, "path");
        if (!path || path->empty()) {
            issues.emplace_back("path", "no image file given: set path to a .png, .r16 or .raw file");
            return;
        }
        if (!hasExtension(*path, ".png") && !hasExtension(*path, ".r16") && !hasExtension(*path, ".raw"))
            issues.emplace_back("path", "the image must be a .png, .r16 or .raw file");
        if (readsRaw(params) && (paramNumber(params, "raw_width") == 0) != (paramNumber(params, "raw_height") == 0))
            issues.emplace_back("raw_height", "give both raw_width and raw_height, or neither (a square)");
    };
    d.evaluate = [](EvalContext &ctx) {
        const std::string file = ctx.filePath("path");
        const ImageChannel channel = ctx.choice("channel", kChannels);
        ImageLoad loaded = hasExtension(file, ".png")
                               ? loadPng(file, channel)
                               : loadRaw16(file, static_cast<int>(ctx.integer("raw_width")), static_cast<int>(ctx.integer("raw_height")));
        if (!loaded.ok()) {
            ctx.failAt("path", ctx.text("path") + ": " + loaded.error);
            return;
        }
        if (ctx.world().endless && (ctx.number("width") <= 0 || ctx.number("height") <= 0)) {
            ctx.failAt(ctx.number("width") <= 0 ? "width" : "height",
                       "an endless world has no size to stretch the image over: give the image its width and height in world units");
            return;
        }
        const double width = ctx.number("width") > 0 ? ctx.number("width") : ctx.world().width;
        const double height = ctx.number("height") > 0 ? ctx.number("height") : ctx.world().height;
        ctx.setOutput("field", std::make_shared<ImageField>(std::move(loaded.image), ctx.number("left"), ctx.number("top"), width,
                                                            height, ctx.number("min"), ctx.number("max"), ctx.number("outside")));
    };
    registry.add(std::move(d));
}

} // namespace grove
