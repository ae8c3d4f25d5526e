// The editor's sense of time for its delays (autosave's quiet time, the preview's debounce and
// progress bar): the system clock by default; tests install a clock they move by hand, so what a
// delay decides is checked without waiting for it.
#pragma once

#include <QObject>
#include <QTimer>

namespace grove {

class EditorClock : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;
    // Milliseconds on a clock that never goes back.
    virtual qint64 nowMs() const = 0;
    // true: timers on this clock are Qt timers of the event loop; false: they fire when advanced()
    // reaches their deadline.
    virtual bool isSystem() const { return false; }
    // The shared system clock (a steady monotonic one).
    static EditorClock *system();

signals:
    // A hand-moved clock moved on (the system clock never emits it).
    void advanced();
};

// A single-shot timer on an EditorClock: a QTimer on the system clock, a deadline on another.
class ClockTimer : public QObject
{
    Q_OBJECT

public:
    explicit ClockTimer(QObject *parent = nullptr);
    // Takes effect from the next start(); a running timer is stopped.
    void setClock(EditorClock *clock);
    EditorClock *clock() const { return m_clock; }
    void setInterval(int ms) { m_interval = ms; }
    int interval() const { return m_interval; }
    void start(int ms);
    void start() { start(m_interval); }
    void stop();
    bool isActive() const;

signals:
    void timeout();

private:
    void check();

    EditorClock *m_clock;
    QTimer m_timer;
    QMetaObject::Connection m_watch;
    qint64 m_deadline = -1;  // on a hand-moved clock; -1 when inactive
    int m_interval = 0;
};

} // namespace grove
