/* The survey screen: the survey's JSON line as a QR code, for machines whose only
 * output is the screen (and whose screen a power-off erases). */
#ifndef APMOFF_SURVEYSCREEN_H
#define APMOFF_SURVEYSCREEN_H

/* Switches to VGA mode 12h through the BIOS, draws the QR code of json, waits for a
 * key (wait = WAIT_KEY) or `wait` seconds, and returns to 80x25 text mode. Says why
 * and returns at once when there is no BIOS to set the mode or the code cannot hold
 * the line. */
void survey_screen_show(const char *json, int wait);

#endif
