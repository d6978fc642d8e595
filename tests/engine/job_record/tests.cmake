# SPDX-License-Identifier: Apache-2.0
# A job's record: the pickle reader (data only, every unsafe opcode refused),
# Flight Recorder dumps of versions 2.3 to 2.10 in both encodings, Kineto
# traces, and folders of them read as one job.
hsdp_test(tst_pickle_reader)
hsdp_test(tst_flight_recorder_reader)
hsdp_test(tst_kineto_reader)
hsdp_test(tst_job_record_reader)
# A job's record held against its plan (check-job): real runs' dumps, edited
# into every kind of divergence.
hsdp_test(tst_job_check LABELS threads COST 30)
