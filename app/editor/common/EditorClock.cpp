// EditorClock: the system clock, and single-shot timers that follow whichever clock is installed.
#include "common/EditorClock.h"

#include <QElapsedTimer>

namespace grove {

namespace {

class SystemClock : public EditorClock
{
public:
    SystemClock() { m_since.start(); }
    qint64 nowMs() const override { return m_since.elapsed(); }
    bool isSystem() const override { return true; }

private:
    QElapsedTimer m_since;
};

} // namespace

EditorClock *EditorClock::system()
{
    static SystemClock clock;
    return &clock;
}

ClockTimer::ClockTimer(QObject *parent) : QObject(parent), m_clock(EditorClock::system())
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &ClockTimer::timeout);
}

void ClockTimer::setClock(EditorClock *clock)
{
    stop();
    m_clock = clock ? clock : EditorClock::system();
}

void ClockTimer::start(int ms)
{
    stop();
    m_interval = ms;
    if (m_clock->isSystem()) {
        m_timer.start(ms);
        return;
    }
    m_deadline = m_clock->nowMs() + ms;
    m_watch = connect(m_clock, &EditorClock::advanced, this, &ClockTimer::check);
    if (ms <= 0)  // as a zero QTimer: on the next turn of the event loop
        QTimer::singleShot(0, this, &ClockTimer::check);
}

void ClockTimer::stop()
{
    m_timer.stop();
    m_deadline = -1;
    disconnect(m_watch);
}

bool ClockTimer::isActive() const
{
    return m_clock->isSystem() ? m_timer.isActive() : m_deadline >= 0;
}

void ClockTimer::check()
{
    if (m_deadline < 0 || m_clock->nowMs() < m_deadline)
        return;
    stop();
    emit timeout();
}

} // namespace grove
