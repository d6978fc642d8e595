// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <memory>
#include <vector>

#include "view/studio_view.h"
#include "view/view_context.h"

namespace hsdp {

// Where the window puts a view: the centre (one view), or a dock. The first
// dock of a side is added there and the later ones join it: tabbed behind it
// on the left and at the bottom, split below it on the right. A scrolled
// bottom dock holds its view in a scroll area, so that a short dock scrolls
// the view rather than squeezing it below its layout's minimum.
enum class ViewPlace { Central, Left, Right, Bottom, BottomScrolled };

struct ViewRegistration {
    // Names the view everywhere: its dock ("<id>Dock", the key of saved
    // layouts), its screenshot ("<id in kebab-case>.png") and the report's
    // pictures of it.
    const char* id;
    const char* title;  // the dock's title and the View menu's entry (translated)
    ViewPlace place;
    // Made with `context`; views of the window's own tools need its
    // plan-diff tracker or document (a picture's context has neither).
    bool needsWindow;
    StudioView* (*make)(const ViewContext& context);
};

// Every view of the studio, in the order the window builds them (which is
// also the order of their tabs and of the screenshots).
const std::vector<ViewRegistration>& studioViews();
const ViewRegistration* findStudioView(const QString& id);
// A view made on its own, with no parent (a screenshot's, a report's).
std::unique_ptr<StudioView> makeStudioView(const ViewRegistration& view,
                                           const ViewContext& context);
// "ownerBalance" -> "owner-balance.png".
QString screenshotFileName(const ViewRegistration& view);

}  // namespace hsdp
