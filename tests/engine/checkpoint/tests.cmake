# SPDX-License-Identifier: Apache-2.0
# Checkpoints: safetensors headers read strictly and cheaply, folders and
# shard indexes, repeated layers folded, saved sharding reconstructed.
hsdp_test(tst_safetensors_header)
hsdp_test(tst_checkpoint_reader)
hsdp_test(tst_layer_folding)
hsdp_test(tst_saved_sharding)
