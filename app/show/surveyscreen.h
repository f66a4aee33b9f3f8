/* The survey screen: the survey's JSON line as a QR code, for machines whose only
 * output is the screen (and whose screen a power-off erases). */
#ifndef APMOFF_SURVEYSCREEN_H
#define APMOFF_SURVEYSCREEN_H

/* Switches to the adapter's graphics mode through the BIOS (12h on a VGA, 10h on an
 * EGA), draws the QR code of json (one compressed symbol, or numbered pages when
 * that does not fit), waits for a key (wait = WAIT_KEY) or `wait` seconds, and
 * returns to 80x25 text mode. On an adapter without such a mode (MDA, CGA) it says
 * so and leaves the text report on the screen for the same wait. Says why and
 * returns at once when there is no BIOS to set the mode or the code cannot hold the
 * line. */
void survey_screen_show(const char *json, const char *adapter, int wait);

#endif
