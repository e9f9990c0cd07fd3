// SPDX-License-Identifier: BSL-1.0
// emflow/flow.hpp: everything needed to build and run flow graphs (the node model, the runtime
// and the node library).
#pragma once

#include <emflow/node.hpp>
#include <emflow/nodes/any_pull_source.hpp>
#include <emflow/nodes/any_push_sink.hpp>
#include <emflow/nodes/async_pull.hpp>
#include <emflow/nodes/async_push.hpp>
#include <emflow/nodes/batched.hpp>
#include <emflow/nodes/chunked_push.hpp>
#include <emflow/nodes/collect.hpp>
#include <emflow/nodes/connect.hpp>
#include <emflow/nodes/count_progress.hpp>
#include <emflow/nodes/count_sink.hpp>
#include <emflow/nodes/distribute.hpp>
#include <emflow/nodes/file.hpp>
#include <emflow/nodes/filter.hpp>
#include <emflow/nodes/generate.hpp>
#include <emflow/nodes/materialize.hpp>
#include <emflow/nodes/pass_through.hpp>
#include <emflow/nodes/pq_push.hpp>
#include <emflow/nodes/pq_source.hpp>
#include <emflow/nodes/pull_base.hpp>
#include <emflow/nodes/pump.hpp>
#include <emflow/nodes/push_pull.hpp>
#include <emflow/nodes/push_transform.hpp>
#include <emflow/nodes/refill_source.hpp>
#include <emflow/nodes/sink.hpp>
#include <emflow/nodes/sort.hpp>
#include <emflow/nodes/sorter.hpp>
#include <emflow/nodes/split.hpp>
#include <emflow/nodes/streamify.hpp>
#include <emflow/nodes/take.hpp>
#include <emflow/nodes/tap.hpp>
#include <emflow/nodes/transform.hpp>
#include <emflow/nodes/tree_sort.hpp>
#include <emflow/nodes/vector_sink.hpp>
#include <emflow/nodes/zip.hpp>
