// One open graph's set: taken down widgets first, the Document last.
#include "window/GraphTab.h"

#include "document/Autosave.h"
#include "document/Document.h"
#include "document/InputWatcher.h"
#include "canvas/GraphScene.h"
#include "canvas/GraphView.h"
#include "inspector/Inspector.h"
#include "preview/PreviewController.h"
#include "window/EditActions.h"
#include "window/PreviewDock.h"
#include "window/ProblemsPanel.h"
#include "window/WorldPanel.h"

namespace grove {

GraphTab::~GraphTab()
{
    for (const QPointer<QWidget> &dialog : dialogs)
        delete dialog;
    exports.waitForDone();  // an export still writing uses the preview's evaluator
    delete previewDock;
    delete world;
    delete problems;
    delete inspector;
    delete view;
    delete editActions;
    delete inputWatcher;
    delete preview;  // stops its evaluation first
    delete scene;
    delete autosave;
    delete document;
}

} // namespace grove
