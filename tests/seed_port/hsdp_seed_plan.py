#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Independent Python port of the reference implementation's planning logic, for differential tests.

Usage: hsdp_seed_plan.py SCENARIO.json [SCENARIO.json ...]
Prints, per file, one line of JSON holding the pinned fields of docs/plan.md §7
(world_size, effective_hsdp_replica_count, no_comm_params, rejected_params,
groups, schedule, ranks, tp_transitions, diagnostics of the pinned codes).
A file that cannot be handled prints {"error": "..."} on its line.

The functions below follow the reference implementation (docs/glossary.md) as literally as
possible (group_parameters_for_hsdp with _normalize_tensor_dim,
build_owner_by_size with its min() scan over all coordinates,
select_owned_records, classify_tp_transition, the gloo remap and the rank-order
check of create_tp_collective_lowerer), plus docs/plan.md's additions: the replica
count (§2), batching (§3), shard_compute (§4) and per-rank ownership.
Nothing here is shared with the C++ planner; only the standard library is used.

Supported scenario subset: hsdp-scenario/1 as written by the tests (repeat
blocks expand with simple name substitution); placements in the short forms
R, S(d), SS(d,k), P, P(op) and PyTorch's printed forms.
"""

import itertools
import json
import re
import sys


# --- placements (docs/plan.md §5: equality by kind and arguments) -----------------

class Placement:
    def is_replicate(self):
        return False

    def is_shard(self):
        return False

    def is_partial(self):
        return False

    def _key(self):
        raise NotImplementedError

    def __eq__(self, other):
        return isinstance(other, Placement) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())


class Replicate(Placement):
    def is_replicate(self):
        return True

    def _key(self):
        return ("R",)

    def __repr__(self):
        return "R"


class Shard(Placement):
    def __init__(self, dim):
        self.dim = dim

    def is_shard(self):
        return True

    def _key(self):
        return ("S", self.dim)

    def __repr__(self):
        return "S(%d)" % self.dim


class StridedShard(Shard):
    def __init__(self, dim, split_factor):
        super().__init__(dim)
        self.split_factor = split_factor

    def _key(self):
        return ("SS", self.dim, self.split_factor)

    def __repr__(self):
        return "SS(%d,%d)" % (self.dim, self.split_factor)


class Partial(Placement):
    def __init__(self, reduce_op="sum"):
        self.reduce_op = reduce_op

    def is_partial(self):
        return True

    def _key(self):
        return ("P", self.reduce_op)

    def __repr__(self):
        return "P(%s)" % self.reduce_op


def parse_placement(text):
    t = re.sub(r"\s+", "", text)
    if t in ("R", "Replicate()"):
        return Replicate()
    m = re.fullmatch(r"(?:S|Shard)\((?:dim=)?(-?\d+)\)", t)
    if m:
        return Shard(int(m.group(1)))
    m = re.fullmatch(r"(?:SS|_S|StridedShard|_StridedShard)\((?:dim=)?(-?\d+),"
                     r"(?:sf=|split_factor=)?(\d+)\)", t)
    if m:
        return StridedShard(int(m.group(1)), int(m.group(2)))
    m = re.fullmatch(r"(?:P|Partial)(?:\((?:reduce_op=)?(\w*)\))?", t)
    if m:
        return Partial(m.group(1) or "sum")
    raise ValueError("unsupported placement spelling %r" % text)


# --- scenario ----------------------------------------------------------------

class Mesh:
    def __init__(self, name, obj):
        self.name = name
        self.mesh_shape = tuple(obj["shape"])
        n = 1
        for s in self.mesh_shape:
            n *= s
        self.dim_names = tuple(obj.get("dim_names") or ["dim%d" % d for d in range(len(self.mesh_shape))])
        self.rank_list = tuple(obj["ranks"]) if "ranks" in obj else tuple(range(n))

    def size(self, dim):
        return self.mesh_shape[dim]

    def coordinate_at(self, position):
        coord = []
        for s in reversed(self.mesh_shape):
            coord.append(position % s)
            position //= s
        return tuple(reversed(coord))

    def get_coordinate(self, rank):
        """DeviceMesh.get_coordinate(): None for a rank outside the mesh."""
        if rank not in self.rank_list:
            return None
        return self.coordinate_at(self.rank_list.index(rank))


class Param:
    """Stands in for a DTensor (placements given) or a plain tensor."""

    def __init__(self, index, obj, meshes):
        self.index = index
        self.name = obj["name"]
        self.shape = tuple(obj["shape"])
        self.requires_grad = obj.get("requires_grad", True)
        placements = obj.get("placements")
        self.placements = None if placements is None else [parse_placement(p) for p in placements]
        mesh_name = obj.get("mesh")
        if mesh_name is None:
            mesh_name = next(iter(meshes)) if len(meshes) == 1 else "main"
        self.device_mesh = meshes[mesh_name] if self.placements is not None else None

    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n


def expand_repeats(items, list_key, scope=None):
    """docs/scenario-format.md repeat blocks: outer loop over the counter, inner over the entries."""
    scope = dict(scope or {})
    out = []
    for item in items:
        if "repeat" not in item:
            entry = dict(item)
            for var, value in scope.items():
                entry["name"] = entry["name"].replace("{%s}" % var, str(value))
            out.append(entry)
            continue
        var = item.get("var", "i")
        for n in range(item["repeat"]):
            out.extend(expand_repeats(item[list_key], list_key, {**scope, var: n}))
    return out


def load_scenario(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    doc["params"] = expand_repeats(doc.get("params", []), "params")
    doc["tp_transitions"] = expand_repeats(doc.get("tp_transitions", []), "transitions")
    if "mesh" in doc:
        meshes = {"main": Mesh("main", doc["mesh"])}
    else:
        meshes = {name: Mesh(name, m) for name, m in doc["meshes"].items()}
    max_rank = max(r for m in meshes.values() for r in m.rank_list)
    world_size = doc.get("world_size", max_rank + 1)
    params = [Param(i, p, meshes) for i, p in enumerate(doc.get("params", []))]
    return doc, meshes, world_size, params


# --- reference: sharding_category.py (grouping) -------------------------------------

class GroupingError(ValueError):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def _normalize_tensor_dim(dim, tensor_ndim):
    """Normalize tensor dim to non-negative dim."""
    original_dim = dim
    if dim < 0:
        dim += tensor_ndim
    if dim < 0 or dim >= tensor_ndim:
        raise GroupingError("invalid-shard-dim",
                            f"Invalid shard dim {original_dim} for tensor ndim {tensor_ndim}.")
    return dim


def extract_param_shard_spec(param):
    tensor_ndim = len(param.shape)
    shard_mesh_dims, replicate_mesh_dims, shard_axes = [], [], []
    for mesh_dim_idx, placement in enumerate(param.placements):
        if placement.is_replicate():
            replicate_mesh_dims.append(mesh_dim_idx)
        elif placement.is_shard():
            if isinstance(placement, StridedShard):
                placement_for_grouping = Shard(placement.dim)
            else:
                placement_for_grouping = placement
            tensor_dim = _normalize_tensor_dim(placement_for_grouping.dim, tensor_ndim)
            shard_mesh_dims.append(mesh_dim_idx)
            shard_axes.append((mesh_dim_idx, tensor_dim))
        else:
            raise GroupingError("unsupported-placement",
                                "Unsupported placement type in HSDP parameter grouping: "
                                f"{type(placement).__name__}.")
    axis_spec = (tensor_ndim, tuple(shard_axes), tuple(replicate_mesh_dims))
    return tuple(shard_mesh_dims), tuple(replicate_mesh_dims), axis_spec


def is_last2d_sharded(axis_spec):
    tensor_ndim, shard_axes, _ = axis_spec
    for _, tensor_dim in shard_axes:
        if tensor_dim >= tensor_ndim - 2:
            return True
    return False


def group_parameters_for_hsdp(params):
    """Returns (no_comm indices, rejected [(index, code)], groups in order of first appearance).

    The reference raises on a bad placement; docs/plan.md §1 rejects that parameter and
    goes on, which is what the try/except below adds.
    """
    no_comm_params, rejected = [], []
    groups = {}
    for param_index, param in enumerate(params):
        if param.placements is None:  # not isinstance(param, DTensor)
            no_comm_params.append(param_index)
            continue
        try:
            shard_mesh_dims, replicate_mesh_dims, axis_spec = extract_param_shard_spec(param)
        except GroupingError as error:
            rejected.append((param_index, error.code))
            continue
        mesh = param.device_mesh
        comm_key = (mesh.mesh_shape, mesh.rank_list, replicate_mesh_dims, shard_mesh_dims)
        if not replicate_mesh_dims and not shard_mesh_dims:
            no_comm_params.append(param_index)
            continue
        group_key = (comm_key, axis_spec)
        if group_key not in groups:
            groups[group_key] = {
                "mesh": mesh,
                "replicate_mesh_dims": replicate_mesh_dims,
                "shard_mesh_dims": shard_mesh_dims,
                "axis_spec": axis_spec,
                "records": [],
            }
        groups[group_key]["records"].append(param_index)
    return no_comm_params, rejected, list(groups.values())


def build_owner_by_size(records, params, replicate_sizes):
    """The reference's greedy scan, literally; also returns the coordinate loads."""
    valid_records = [r for r in records if params[r].requires_grad]
    dim_ranges = [range(s) for s in replicate_sizes]
    all_coords = list(itertools.product(*dim_ranges))
    coord_loads = {coord: 0 for coord in all_coords}
    if not valid_records:
        return {}, coord_loads
    if not replicate_sizes:
        # The reference returns here without loads; the plan reports the one coordinate ().
        coord_loads[()] = sum(params[r].numel() for r in valid_records)
        return {r: () for r in valid_records}, coord_loads
    sorted_records = sorted(valid_records, key=lambda r: (-params[r].numel(), r))
    owner_by_index = {}
    for record in sorted_records:
        best_coord = min(all_coords, key=lambda c: (coord_loads[c], c))
        owner_by_index[record] = best_coord
        coord_loads[best_coord] += params[record].numel()
    return owner_by_index, coord_loads


def select_owned_records(records, owner_by_index, replicate_group_ranks):
    if any(r < 0 for r in replicate_group_ranks):
        return []
    return [r for r in records if owner_by_index.get(r) == replicate_group_ranks]


# --- docs/plan.md §2: replica count -------------------------------------------------

def effective_replica_count(groups, options, diagnostics):
    count = options.get("hsdp_replica_count")
    if options.get("auto_replica_count", False):
        devices_per_node = options.get("devices_per_node", 8)
        split_needed = False
        dedup_at = {}
        for g in groups:
            for j, dim in enumerate(g["replicate_mesh_dims"]):
                s = g["mesh"].size(dim)
                if s <= 1:
                    continue
                if s > devices_per_node:
                    dedup = min(s, devices_per_node)
                    while s % dedup != 0:
                        dedup -= 1
                    split_needed = True
                else:
                    dedup = s
                dedup_at[j] = min(dedup_at.get(j, dedup), dedup)
        if not split_needed:
            if count is not None:
                add_diag(diagnostics, "replica-count-ignored", "warning", [], [])
            count = None
        elif count is None:
            count = min(dedup_at.values())
    if count is not None:
        for g in groups:
            for dim in g["replicate_mesh_dims"]:
                s = g["mesh"].size(dim)
                if s > count and s % count != 0:
                    add_diag(diagnostics, "replica-count-indivisible", "error", g["records"], [])
    return count


def replicate_sizes_of(group, count):
    sizes = [group["mesh"].size(d) for d in group["replicate_mesh_dims"]]
    return tuple(min(s, count) if count is not None else s for s in sizes)


# --- docs/plan.md §3: batches and schedule -----------------------------------------

def split_batches(records, params, max_batch_numel):
    if max_batch_numel is None:
        return [list(records)]
    ordered = sorted(records, key=lambda r: -params[r].numel())  # stable
    batches, current, current_numel = [], [], 0
    for r in ordered:
        current.append(r)
        current_numel += params[r].numel()
        if current_numel >= max_batch_numel:
            batches.append(current)
            current, current_numel = [], 0
    if current:
        batches.append(current)
    return sorted(batches, key=lambda b: -sum(params[r].numel() for r in b))  # stable


# --- reference: tp_collective_lowering.py ---------------------------------------------

def classify_tp_transition(src, dst, mesh_dim_names):
    if tuple(src) == tuple(dst):
        return {"kind": "identity"}
    if "tp" not in mesh_dim_names:
        return None
    tp_axis = tuple(mesh_dim_names).index("tp")
    if any(axis != tp_axis and s != d for axis, (s, d) in enumerate(zip(src, dst))):
        return None
    src_tp, dst_tp = src[tp_axis], dst[tp_axis]
    if isinstance(src_tp, Shard) and isinstance(dst_tp, Replicate):
        return {"kind": "all_gather", "tensor_dim": src_tp.dim}
    if isinstance(src_tp, Partial) and isinstance(dst_tp, Replicate):
        if src_tp.reduce_op != "sum":
            return None
        return {"kind": "all_reduce", "reduce_op": "sum"}
    if isinstance(src_tp, Partial) and isinstance(dst_tp, Shard):
        if src_tp.reduce_op != "sum":
            return None
        return {"kind": "reduce_scatter", "tensor_dim": dst_tp.dim, "reduce_op": "sum"}
    return None


def execution_op_kind(kind, backend):
    if kind == "reduce_scatter" and "gloo" in backend:
        kind = "all_reduce_shard"
    return kind


def tp_groups(mesh, tp_axis):
    """Every rank list along tp (other coordinates fixed), other coords row-major."""
    others = [range(s) if d != tp_axis else range(1) for d, s in enumerate(mesh.mesh_shape)]
    out = []
    for base in itertools.product(*others):
        ranks = []
        for k in range(mesh.mesh_shape[tp_axis]):
            coord = list(base)
            coord[tp_axis] = k
            position = 0
            for d, s in enumerate(mesh.mesh_shape):
                position = position * s + coord[d]
            ranks.append(mesh.rank_list[position])
        out.append(ranks)
    return out


def plan_tp(doc, meshes, backend, diagnostics):
    out = []
    for index, t in enumerate(doc.get("tp_transitions", [])):
        mesh = meshes[t["mesh"]] if "mesh" in t else next(iter(meshes.values()))
        src = [parse_placement(p) for p in t["src"]]
        dst = [parse_placement(p) for p in t["dst"]]
        classification = classify_tp_transition(src, dst, mesh.dim_names)
        groups = []
        if "tp" in mesh.dim_names:
            tp_axis = mesh.dim_names.index("tp")
            for mesh_ranks in tp_groups(mesh, tp_axis):
                group_ranks = sorted(mesh_ranks)  # dist.get_process_group_ranks order
                entry = {"mesh_ranks": mesh_ranks}
                if tuple(mesh_ranks) != tuple(group_ranks):
                    entry.update(path="fallback", reason="rank-order")
                    add_diag(diagnostics, "tp-rank-order-fallback", "warning", [], [index])
                elif classification is None:
                    entry.update(path="fallback", reason="unsupported")
                elif classification["kind"] == "identity":
                    entry.update(path="identity")
                else:
                    entry.update(path="lowered", op=execution_op_kind(classification["kind"], backend))
                groups.append(entry)
        out.append({"index": index, "name": t["name"], "classification": classification,
                    "groups": groups})
    return out


# --- docs/plan.md §6: hazards ---------------------------------------------------------

def add_diag(diagnostics, code, severity, params, transitions):
    d = diagnostics.setdefault(code, {"severity": severity, "params": set(), "transitions": set()})
    d["params"].update(params)
    d["transitions"].update(transitions)


def report_hazards(groups, params, diagnostics):
    for g in groups:
        gathered = bool(g["shard_mesh_dims"]) and is_last2d_sharded(g["axis_spec"])
        for r in g["records"]:
            p = params[r]
            if not p.requires_grad:
                add_diag(diagnostics, "frozen-param-no-owner", "info", [r], [])
            if not gathered:
                continue
            product, plain = {}, {}
            for m, pl in enumerate(p.placements):
                if not pl.is_shard():
                    continue
                d = _normalize_tensor_dim(pl.dim, len(p.shape))
                size = g["mesh"].size(m)
                product[d] = product.get(d, 1) * size
                if size <= 1:
                    continue
                if isinstance(pl, StridedShard):
                    add_diag(diagnostics, "strided-shard-chunk", "warning", [r], [])
                else:
                    plain[d] = plain.get(d, 0) + 1
            if any(p.shape[d] % n != 0 for d, n in product.items()):
                add_diag(diagnostics, "uneven-shard", "warning", [r], [])
            if any(c >= 2 for c in plain.values()):
                add_diag(diagnostics, "nested-shard-order", "warning", [r], [])


# --- the plan ----------------------------------------------------------------------

def coords_of(sizes):
    return list(itertools.product(*[range(s) for s in sizes]))


def plan_batch(batch, params, rep_sizes, shard_sizes, gathered):
    owner, loads = build_owner_by_size(batch, params, rep_sizes)
    out = {
        "params": batch,
        "numel": sum(params[r].numel() for r in batch),
        "replicate_sizes": list(rep_sizes),
        "is_shard": gathered,
        "owner": {str(r): list(c) for r, c in owner.items()},
        "loads": [{"coord": list(c), "numel": loads[c]} for c in coords_of(rep_sizes)],
    }
    if gathered:
        compute = []
        for c in coords_of(rep_sizes):
            owned = select_owned_records(batch, owner, c)
            shard_owner, _ = build_owner_by_size(owned, params, shard_sizes)
            compute.append({"replicate_coord": list(c),
                            "compute_coord": {str(r): list(sc) for r, sc in shard_owner.items()}})
        out["shard_compute"] = compute
    return out, owner


def make_plan(path):
    doc, meshes, world_size, params = load_scenario(path)
    options = doc.get("options", {})
    diagnostics = {}
    no_comm, rejected, groups = group_parameters_for_hsdp(params)
    for index, code in rejected:
        add_diag(diagnostics, code, "error", [index], [])
    count = effective_replica_count(groups, options, diagnostics)
    max_batch_numel = options.get("max_batch_numel")
    owned_by_rank = {r: [] for r in range(world_size)}
    groups_json, group_numel = [], []
    for gid, g in enumerate(groups):
        mesh = g["mesh"]
        rep_sizes = replicate_sizes_of(g, count)
        shard_sizes = tuple(mesh.size(d) for d in g["shard_mesh_dims"])
        gathered = bool(g["shard_mesh_dims"]) and is_last2d_sharded(g["axis_spec"])
        batches_json = []
        for batch in split_batches(g["records"], params, max_batch_numel):
            bj, owner = plan_batch(batch, params, rep_sizes, shard_sizes, gathered)
            batches_json.append(bj)
            for rank in owned_by_rank:
                coord = mesh.get_coordinate(rank)
                if coord is None:
                    # docs/plan.md §4: a rank outside the mesh owns nothing. (The reference's
                    # get_multi_dim_logical_info returns () before looking at the
                    # coordinate when there are no replicate dims, which would make
                    # an outside rank "own" every param of a pure-shard group.)
                    continue
                else:
                    ranks = tuple(coord[d] % count if count is not None else coord[d]
                                  for d in g["replicate_mesh_dims"])
                owned_by_rank[rank].extend(select_owned_records(batch, owner, ranks))
        tensor_ndim, shard_axes, replicate_dims = g["axis_spec"]
        groups_json.append({
            "id": gid, "mesh": mesh.name, "mesh_shape": list(mesh.mesh_shape),
            "replicate_mesh_dims": list(g["replicate_mesh_dims"]),
            "shard_mesh_dims": list(g["shard_mesh_dims"]),
            "layout": {"tensor_ndim": tensor_ndim, "shard_axes": [list(a) for a in shard_axes],
                       "replicate_mesh_dims": list(replicate_dims),
                       "is_last2d_sharded": is_last2d_sharded(g["axis_spec"])},
            "params": g["records"], "batches": batches_json})
        group_numel.append(sum(params[r].numel() for r in g["records"]))
    order = list(range(len(groups)))
    if max_batch_numel is not None:
        order.sort(key=lambda i: -group_numel[i])  # stable
    schedule = [[gid, b] for gid in order for b in range(len(groups_json[gid]["batches"]))]
    report_hazards(groups, params, diagnostics)
    tp = plan_tp(doc, meshes, options.get("backend", "gloo"), diagnostics)
    ranks = [{"rank": r, "owned": sorted(owned_by_rank[r]),
              "owned_numel": sum(params[i].numel() for i in owned_by_rank[r])}
             for r in range(world_size)]
    return {
        "world_size": world_size,
        "effective_hsdp_replica_count": count,
        "no_comm_params": no_comm,
        "rejected_params": [i for i, _ in rejected],
        "groups": groups_json,
        "schedule": schedule,
        "ranks": ranks,
        "tp_transitions": tp,
        "diagnostics": {code: {"severity": d["severity"], "params": sorted(d["params"]),
                               "transitions": sorted(d["transitions"])}
                        for code, d in diagnostics.items()},
    }


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    for path in argv[1:]:
        try:
            out = make_plan(path)
        except Exception as error:  # reported per file, the caller decides
            out = {"error": "%s: %s: %s" % (path, type(error).__name__, error)}
        print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
