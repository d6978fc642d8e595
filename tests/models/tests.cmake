# SPDX-License-Identifier: Apache-2.0
# The studio's models (Qt Core/Gui, no widgets). tst_run_session carries no
# "threads" label for now: TSan reports JobTracker's hand-off of a result to the
# GUI thread, whose ordering lives in Qt's uninstrumented slot-object refcount.
hsdp_test(tst_plan_diff_model LINKS hsdpmodels)
hsdp_test(tst_field_text LINKS hsdpmodels)
hsdp_test(tst_plan_models LINKS hsdpmodels)
hsdp_test(tst_run_session LINKS hsdpmodels)
hsdp_test(tst_step_faults LINKS hsdpmodels)
hsdp_test(tst_job_tracker LINKS hsdpmodels)
hsdp_test(tst_session LINKS hsdpmodels TOOLS hsdp-inspect)
hsdp_test(tst_autosave_store LINKS hsdpmodels)
hsdp_test(tst_autosaver LINKS hsdpmodels)
# The studio's folders include down only (the floor plan in widgets/CMakeLists.txt).
hsdp_test(tst_widget_layering)
