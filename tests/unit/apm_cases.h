/* The test_apm cases, by file: the table of contents of the APM unit tests.
 * Each name is declared here and listed once, in test_apm.c, through these lists. */
#ifndef APMOFF_TESTS_APM_CASES_H
#define APMOFF_TESTS_APM_CASES_H

/* apm_cases_install.c */
#define APM_CASES_INSTALL(X) \
    X(test_install_check_1_2) \
    X(test_install_check_versions) \
    X(test_install_check_compaq_0_1) \
    X(test_install_check_version_not_bcd) \
    X(test_install_check_missing_signature) \
    X(test_install_check_not_present_86h) \
    X(test_install_check_no_code) \
    X(test_install_check_bios_does_nothing) \
    X(test_install_check_transport_failure)

/* apm_cases_connect.c */
#define APM_CASES_CONNECT(X) \
    X(test_connect_rm_sequence) \
    X(test_every_call_has_cf_preset) \
    X(test_connect_zeroes_registers) \
    X(test_connect_already_connected_retry_once) \
    X(test_connect_already_connected_twice_fails) \
    X(test_connect_stale_connection) \
    X(test_connect_pm32_while_rm_connected) \
    X(test_connect_any_already_connected_code) \
    X(test_connect_error_codes) \
    X(test_connect_no_code_and_no_call) \
    X(test_connect_injected)

/* apm_cases_version.c */
#define APM_CASES_VERSION(X) \
    X(test_driver_version_countdown) \
    X(test_driver_version_all_refused) \
    X(test_driver_version_no_more_than_bios) \
    X(test_driver_version_too_new_request_avoided) \
    X(test_driver_version_lower_answer) \
    X(test_driver_version_answer_above_asked) \
    X(test_driver_version_garbage_answer) \
    X(test_driver_version_not_asked_of_1_0) \
    X(test_driver_version_after_every_connect)

/* apm_cases_demand.c */
#define APM_CASES_DEMAND(X) \
    X(test_connect_enables_nothing) \
    X(test_off_enables_when_disabled) \
    X(test_off_engages_when_disengaged) \
    X(test_off_engages_on_0bh) \
    X(test_connect_recheck_fails) \
    X(test_off_enable_1_0_device_id) \
    X(test_off_retried_once) \
    X(test_sleep_enables_when_disabled) \
    X(test_off_chain_makes_only_needed_calls) \
    X(test_off_success_waits_before_fallback) \
    X(test_off_error_not_waited) \
    X(test_disconnect_03h_said_as_expected)

/* apm_cases_pm.c */
#define APM_CASES_PM(X) \
    X(test_pm32_connect_info) \
    X(test_pm32_connect_zero_and_short_lengths) \
    X(test_pm16_connect_info) \
    X(test_pm_setup_failure) \
    X(test_pm_connect_reruns_install_check) \
    X(test_pm_connect_flags_unchanged)

/* apm_cases_desc.c */
#define APM_CASES_DESC(X) \
    X(test_pm32_descriptors) \
    X(test_pm16_descriptors) \
    X(test_segdesc_encoding)

/* apm_cases_query.c */
#define APM_CASES_QUERY(X) \
    X(test_query_status_1_2) \
    X(test_query_status_unknown) \
    X(test_query_status_odd_values) \
    X(test_query_1_1_has_no_capabilities) \
    X(test_query_status_failure)

/* apm_cases_resume.c */
#define APM_CASES_RESUME(X) \
    X(test_resume_timer_wakes) \
    X(test_resume_timer_bcd) \
    X(test_resume_timer_1_1)

/* apm_cases_off.c */
#define APM_CASES_OFF(X) \
    X(test_power_off_returns_success) \
    X(test_power_off_unable_60h) \
    X(test_power_off_error_codes) \
    X(test_power_off_no_code) \
    X(test_power_off_transport_failure) \
    X(test_power_off_injected) \
    X(test_power_off_inject_bits_per_interface) \
    X(test_power_off_pm32_version_1_0) \
    X(test_power_off_line_port_tag)

/* apm_cases_poweroff.c */
#define APM_CASES_POWEROFF(X) \
    X(test_chain_order) \
    X(test_chain_no_apm) \
    X(test_chain_rm_only) \
    X(test_chain_skips_pm_not_offered) \
    X(test_chain_stuck_last) \
    X(test_chain_stuck_forced) \
    X(test_off_again) \
    X(test_chain_only_one_interface) \
    X(test_chain_only_not_offered) \
    X(test_chain_connect_failure_moves_on) \
    X(test_chain_injected_rm_off) \
    X(test_chain_lax_bios) \
    X(test_survey) \
    X(test_survey_only_rm) \
    X(test_survey_no_apm) \
    X(test_survey_connect_failure) \
    X(test_survey_without_rm_port)

/* apm_cases_text.c */
#define APM_CASES_TEXT(X) \
    X(test_result_text) \
    X(test_iface_names)

/* apm_cases_check.c */
#define APM_CASES_CHECK(X) \
    X(test_check_conforming_bios) \
    X(test_check_lax_bios) \
    X(test_check_skips_by_version) \
    X(test_check_interface_not_offered) \
    X(test_check_never_enters_a_sleep_state) \
    X(test_check_power_status_ranges) \
    X(test_check_no_apm)

#define APM_CASES(X) \
    APM_CASES_INSTALL(X) \
    APM_CASES_CONNECT(X) \
    APM_CASES_VERSION(X) \
    APM_CASES_DEMAND(X) \
    APM_CASES_PM(X) \
    APM_CASES_DESC(X) \
    APM_CASES_QUERY(X) \
    APM_CASES_RESUME(X) \
    APM_CASES_OFF(X) \
    APM_CASES_POWEROFF(X) \
    APM_CASES_TEXT(X) \
    APM_CASES_CHECK(X)

#define APM_CASE_DECLARE(f) void f(void **state);
APM_CASES(APM_CASE_DECLARE)

#endif
