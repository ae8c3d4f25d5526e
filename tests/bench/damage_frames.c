/* Frames as the X server sees them: the screen's damage (XDamage on the root window, as VNC
 * servers watch it) within a given rectangle, gathered into bursts (no damage for 2 ms ends one);
 * after each burst the rectangle's pixels are read back and hashed. One line a burst, "MS HASH",
 * MS the milliseconds since the start (CLOCK_MONOTONIC) of the burst's first damage: a new frame
 * is a line whose hash differs from the line before (a repaint of the same picture is not one).
 * Runs until SECONDS have passed. tests/bench/slider-repaints.sh drives the editor under Xvfb with it.
 *   damage_frames X Y W H SECONDS      (the DISPLAY's screen; prints "ready" on stderr when watching)
 * Built by hand, it is not part of the CTest build: cc -O2 -o damage_frames damage_frames.c -lX11 -lXdamage */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xdamage.h>

#include <stdint.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double nowMs(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* FNV-1a over the rectangle's pixels. */
static uint64_t hashOf(Display *dpy, int x, int y, int w, int h)
{
    XImage *image = XGetImage(dpy, DefaultRootWindow(dpy), x, y, (unsigned)w, (unsigned)h, AllPlanes, ZPixmap);
    if (!image)
        return 0;
    uint64_t hash = 1469598103934665603ull;
    for (int j = 0; j < h; ++j)
        for (int i = 0; i < w; ++i) {
            hash ^= (uint64_t)XGetPixel(image, i, j);
            hash *= 1099511628211ull;
        }
    XDestroyImage(image);
    return hash;
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: damage_frames X Y W H SECONDS\n");
        return 2;
    }
    const int rx = atoi(argv[1]), ry = atoi(argv[2]), rw = atoi(argv[3]), rh = atoi(argv[4]);
    const double seconds = atof(argv[5]);
    if (rw <= 0 || rh <= 0 || !(seconds > 0 && seconds < 3600)) {
        fprintf(stderr, "damage_frames: give a rectangle with a size and 0 < SECONDS < 3600\n");
        return 2;
    }
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) {
        fprintf(stderr, "damage_frames: cannot open the display (DISPLAY=%s)\n", getenv("DISPLAY") ? getenv("DISPLAY") : "");
        return 1;
    }
    int eventBase = 0, errorBase = 0;
    if (!XDamageQueryExtension(dpy, &eventBase, &errorBase)) {
        fprintf(stderr, "damage_frames: the X server has no DAMAGE extension\n");
        return 1;
    }
    XDamageCreate(dpy, DefaultRootWindow(dpy), XDamageReportRawRectangles);
    XSync(dpy, False);
    fprintf(stderr, "ready\n");
    const double start = nowMs();
    struct pollfd fd = {ConnectionNumber(dpy), POLLIN, 0};
    double burst = -1;  /* the first damage of the burst being gathered; -1: none */
    for (;;) {
        const double left = seconds * 1e3 - (nowMs() - start);
        if (left <= 0)
            break;
        int damaged = 0;
        while (XPending(dpy)) {
            XEvent e;
            XNextEvent(dpy, &e);
            if (e.type != eventBase + XDamageNotify)
                continue;
            const XRectangle *a = &((const XDamageNotifyEvent *)&e)->area;
            if (a->x < rx + rw && a->x + a->width > rx && a->y < ry + rh && a->y + a->height > ry) {
                damaged = 1;
                if (burst < 0)
                    burst = nowMs() - start;
            }
        }
        if (burst >= 0 && !damaged && poll(&fd, 1, 2) == 0) {  /* quiet for 2 ms: the burst is a frame */
            printf("%.3f %016llx\n", burst, (unsigned long long)hashOf(dpy, rx, ry, rw, rh));
            fflush(stdout);
            burst = -1;
            continue;
        }
        if (!damaged)
            poll(&fd, 1, (int)(left < 50 ? left + 1 : 50));
    }
    XCloseDisplay(dpy);
    return 0;
}
