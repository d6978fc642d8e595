# SPDX-License-Identifier: Apache-2.0
# The studio's views and window (Qt Widgets, offscreen): a view alone links
# hsdpviews, the report's figures hsdpreport, the window hsdpwindow. Label
# "views": not in the AddressSanitizer build.
hsdp_test(tst_buffer_views LINKS hsdpviews LABELS views)
hsdp_test(tst_plan_diff_widget LINKS hsdpwindow LABELS views)
hsdp_test(tst_figure_labels LINKS hsdpreport LABELS views)
hsdp_test(tst_main_window LINKS hsdpwindow TOOLS hsdp-inspect hsdp-studio LABELS views)
hsdp_test(tst_mesh_view LINKS hsdpviews LABELS views)
hsdp_test(tst_mesh_overview LINKS hsdpviews LABELS views)
hsdp_test(tst_new_from_config LINKS hsdpwindow TOOLS hsdp-inspect LABELS views)
hsdp_test(tst_owner_balance LINKS hsdpwindow TOOLS hsdp-studio LABELS views)
hsdp_test(tst_report LINKS hsdpwindow TOOLS hsdp-inspect hsdp-inspect-report LABELS views)
hsdp_test(tst_run_window LINKS hsdpwindow TOOLS hsdp-studio LABELS views)
hsdp_test(tst_selection_lifecycle LINKS hsdpwindow LABELS views)
hsdp_test(tst_tensor_layout LINKS hsdpviews LABELS views)
hsdp_test(tst_trace_views LINKS hsdpviews LABELS views)
hsdp_test(tst_traffic_groups LINKS hsdpviews LABELS views)
hsdp_test(tst_view_fit LINKS hsdpwindow LABELS views)
hsdp_test(tst_view_registry LINKS hsdpwindow LABELS views)
hsdp_test(tst_what_if_editing LINKS hsdpwindow LABELS views)
hsdp_test(tst_prediction_views LINKS hsdpwindow LABELS views)
hsdp_test(tst_all_to_all_views LINKS hsdpwindow LABELS views)
