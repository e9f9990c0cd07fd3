// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/graph.hpp: the whole graph component: format, builder, importers,
// generators, searches (SSSP, BFS, A*), distance files and the checker.
#pragma once

#include <emflow/pipelines/graph/builder.hpp>
#include <emflow/pipelines/graph/check.hpp>
#include <emflow/pipelines/graph/distances.hpp>
#include <emflow/pipelines/graph/format.hpp>
#include <emflow/pipelines/graph/generate.hpp>
#include <emflow/pipelines/graph/import.hpp>
#include <emflow/pipelines/graph/search.hpp>
