/* The menu on the screen and COM1: see menuui.h. */
#include "menuui.h"
#include "console.h"
#include "../lib/format.h"
#include "../lib/pc.h"
#include "../lib/string.h"

#define FIRST_ROW       2
#define STOPPED         "The countdown is stopped."

struct view {
    const struct menu *m;
    const char *version;
    unsigned selected;
    int counting;
    const char *note;           /* on the status line while nothing else is */
};

static uint32_t elapsed_ticks(uint32_t start)
{
    uint32_t now = ticks();
    return now >= start ? now - start : now + BIOS_TICKS_PER_DAY - start;
}

static void draw_entry(const struct view *v, unsigned i)
{
    char text[84];
    fmt_snprintf(text, sizeof(text), "%2u %s", i + 1, v->m->entry[i].title);
    screen_at(FIRST_ROW + i, 0, i == v->selected ? ATTR_INVERSE : ATTR_NORMAL, text,
              screen_columns());
}

static void draw_status(const char *text)
{
    screen_at(screen_rows() - 2, 0, ATTR_NORMAL, text, screen_columns());
}

static void draw(struct view *v)
{
    char title[84];
    screen_clear();
    fmt_snprintf(title, sizeof(title), " apmoff %s loader", v->version);
    screen_at(0, 0, ATTR_INVERSE, title, screen_columns());
    for (unsigned i = 0; i < v->m->count; i++)
        draw_entry(v, i);
    screen_at(screen_rows() - 3, 0, ATTR_NORMAL,
              "Up/Down or a digit picks an entry, Enter boots it, e edits its words",
              screen_columns());
    if (v->note)
        draw_status(v->note);
    screen_cursor(screen_rows(), 0);

    serial_line("apmoff loader %s: boot menu (keys here or on the keyboard: a digit or "
                "Up/Down picks, Enter boots, e edits the words)", v->version);
    for (unsigned i = 0; i < v->m->count; i++)
        serial_line("apmoff loader: %2u %s", i + 1, v->m->entry[i].title);
}

static void select(struct view *v, unsigned i)
{
    if (i >= v->m->count || i == v->selected)
        return;
    unsigned old = v->selected;
    v->selected = i;
    draw_entry(v, old);
    draw_entry(v, i);
    serial_line("apmoff loader: > %u %s", i + 1, v->m->entry[i].title);
}

/* Edits the words on the status line and COM1. 1: boot with them, 0: cancelled. */
static int edit(struct view *v, char *words, unsigned size)
{
    unsigned len = (unsigned)strlen(words);
    char shown[84];
    serial_line("apmoff loader: edit the words of %u (Enter boots, Esc cancels):",
                v->selected + 1);
    serial_text(words);
    for (;;) {
        unsigned cols = screen_columns(), room = cols - 8;
        fmt_snprintf(shown, sizeof(shown), "words: %s_", len + 1 > room ? words + len + 1 -
                     room : words);
        screen_at(screen_rows() - 2, 0, ATTR_NORMAL, shown, cols);
        int key;
        while (!(key = key_poll()))
            idle();
        if (key == KEY_ENTER) {
            serial_text("\n");
            return 1;
        }
        if (key == KEY_ESC) {
            serial_text("\n");
            serial_line("apmoff loader: editing cancelled");
            return 0;
        }
        if (key == KEY_BACKSPACE && len) {
            words[--len] = '\0';
            serial_text("\b \b");
        } else if (key >= 0x20 && key < 0x7F && len + 1 < size) {
            char echo[2] = { (char)key, 0 };
            words[len++] = (char)key;
            words[len] = '\0';
            serial_text(echo);
        }
    }
}

unsigned menu_run(const struct menu *m, const char *version, const char *note, char *words,
                  unsigned size)
{
    struct view v = { m, version, m->chosen, m->timeout > 0 && !m->hold, note };
    char status[84];
    int key = KEY_NONE;

    if (!m->timeout && !m->hold && !(key = key_poll())) {
        fmt_snprintf(words, size, "%s", m->entry[v.selected].words);
        return v.selected;
    }
    draw(&v);
    if (v.counting)
        serial_line("apmoff loader: booting %u in %u s; any key stops the countdown",
                    v.selected + 1, m->timeout);
    uint32_t start = ticks();
    unsigned shown = ~0u;
    for (;;) {
        if (v.counting) {
            uint32_t gone = elapsed_ticks(start) * 10 / BIOS_TICKS_PER_10S;
            if (gone >= m->timeout)
                break;
            if (m->timeout - gone != shown) {
                shown = m->timeout - gone;
                fmt_snprintf(status, sizeof(status), "Booting the highlighted entry in %u s; "
                             "any key stops the countdown.", shown);
                draw_status(status);
            }
        }
        if (key == KEY_NONE)
            key = key_poll();
        if (key == KEY_NONE) {
            idle();
            continue;
        }
        if (v.counting) {
            v.counting = 0;
            draw_status(STOPPED);
            serial_line("apmoff loader: countdown stopped");
        }
        if (key == KEY_ENTER)
            break;
        if (key == KEY_UP && v.selected > 0)
            select(&v, v.selected - 1);
        else if (key == KEY_DOWN)
            select(&v, v.selected + 1);
        else if (key >= '1' && key <= '9')
            select(&v, (unsigned)(key - '1'));
        else if (key == 'e') {
            fmt_snprintf(words, size, "%s", m->entry[v.selected].words);
            if (edit(&v, words, size)) {
                screen_clear();
                return v.selected;
            }
            draw_status(STOPPED);
        }
        key = KEY_NONE;
    }
    fmt_snprintf(words, size, "%s", m->entry[v.selected].words);
    screen_clear();
    return v.selected;
}
