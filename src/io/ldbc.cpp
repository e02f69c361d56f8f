// LDBC Graphalytics graphs: NAME.properties, NAME.v (vertex ids), NAME.e (edges).
#include <algorithm>
#include <map>
#include <string>
#include <system_error>
#include <unordered_map>

#include "csr_assembly.hpp"
#include "fields.hpp"
#include "grb/io.hpp"
#include "line_reader.hpp"

namespace grb::io {

namespace {

namespace fs = std::filesystem;

/// Whether `path` names something; false also where it cannot be asked (a name too long, a
/// folder without access), which the caller reports as a file it cannot read.
bool file_exists(const fs::path& path) {
  std::error_code ignored;
  return fs::exists(path, ignored);
}

/// A Java-style properties file: "key = value" (or "key: value"); '#' and '!' comment lines.
class Properties {
 public:
  explicit Properties(const fs::path& path) : file_name_(path.string()) {
    detail::LineReader reader(path, false);
    std::string_view line;
    while (reader.next(line)) {
      line = detail::trim(line);
      if (line.empty() || line[0] == '#' || line[0] == '!') continue;
      std::size_t split = line.find_first_of("=:");
      if (split == std::string_view::npos) split = line.find_first_of(" \t");
      const std::string key(detail::trim(line.substr(0, split)));
      const std::string_view value =
          split == std::string_view::npos ? std::string_view() : detail::trim(line.substr(split + 1));
      entries_[key] = {std::string(value), reader.line_number()};
    }
    lines_ = reader.line_number();
  }

  struct Entry {
    std::string value;
    std::size_t line = 0;
  };
  const Entry* find(const std::string& key) const {
    auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : &it->second;
  }
  [[noreturn]] void fail(const Entry* entry, const std::string& message) const {
    throw ParseError(file_name_, entry ? entry->line : lines_, message);
  }

 private:
  std::string file_name_;
  std::map<std::string, Entry> entries_;
  std::size_t lines_ = 0;
};

/// File id -> vertex: a direct table when the ids span a small range, else a hash map.
class VertexLookup {
 public:
  explicit VertexLookup(const std::vector<std::uint64_t>& ids) {
    if (ids.empty()) return;
    const auto [low, high] = std::minmax_element(ids.begin(), ids.end());
    if (*high - *low < 4 * std::uint64_t(ids.size()) + 1024) {
      base_ = *low;
      table_.assign(*high - *low + 1, no_index);
      for (std::size_t i = 0; i < ids.size(); ++i) table_[ids[i] - base_] = static_cast<Index>(i);
    } else {
      map_.reserve(ids.size());
      for (std::size_t i = 0; i < ids.size(); ++i) map_.emplace(ids[i], static_cast<Index>(i));
      use_map_ = true;
    }
  }
  /// The vertex of `id`, or no_index.
  Index find(std::uint64_t id) const {
    if (use_map_) {
      auto it = map_.find(id);
      return it == map_.end() ? no_index : it->second;
    }
    if (id < base_ || id - base_ >= table_.size()) return no_index;
    return table_[id - base_];
  }

 private:
  bool use_map_ = false;
  std::uint64_t base_ = 0;
  std::vector<Index> table_;
  std::unordered_map<std::uint64_t, Index> map_;
};

std::vector<std::uint64_t> read_vertex_file(const fs::path& path, bool progress) {
  detail::LineReader reader(path, progress);
  std::vector<std::uint64_t> ids;
  std::string_view line;
  while (reader.next(line)) {
    line = detail::trim(line);
    if (line.empty() || line[0] == '#') continue;
    detail::FieldSplitter fields(line, false);
    std::string_view id_field;
    fields.next(id_field);  // further columns are vertex properties
    ids.push_back(detail::parse_unsigned(id_field, reader, "vertex id"));
    if (ids.size() >= no_index)
      reader.fail("more vertices than grb's 32-bit vertex ids can number");
  }
  if (ids.empty())
    throw ParseError(reader.file_name(), reader.line_number(), "no vertices: expected one id per line");
  // Repeated ids would make the mapping ambiguous.
  std::vector<std::uint64_t> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  const auto repeated = std::adjacent_find(sorted.begin(), sorted.end());
  if (repeated != sorted.end()) {
    // Rare: read the file again to name the line of the second occurrence.
    detail::LineReader again(path, false);
    bool seen = false;
    while (again.next(line)) {
      line = detail::trim(line);
      if (line.empty() || line[0] == '#') continue;
      detail::FieldSplitter fields(line, false);
      std::string_view id_field;
      fields.next(id_field);
      if (detail::parse_unsigned(id_field, again, "vertex id") != *repeated) continue;
      if (seen) again.fail("vertex id " + std::to_string(*repeated) + " is listed twice");
      seen = true;
    }
  }
  return ids;
}

/// True when the first content line of `path` holds a single column, as a vertex file does.
bool looks_like_vertex_file(const fs::path& path) {
  detail::LineReader reader(path, false);
  std::string_view line;
  while (reader.next(line)) {
    line = detail::trim(line);
    if (line.empty() || line[0] == '#') continue;
    detail::FieldSplitter fields(line, false);
    std::string_view field;
    fields.next(field);
    return !fields.next(field);
  }
  return false;
}

struct Layout {
  std::string name;
  fs::path vertex_file, edge_file;
  std::optional<fs::path> properties_file;
};

/// NAME, NAME.properties, NAME.v or NAME.e -> the files of graph NAME.
Layout locate(const fs::path& path) {
  fs::path base = path;
  const auto extension = path.extension();
  if (extension == ".properties" || extension == ".v" || extension == ".e")
    base.replace_extension();
  Layout layout;
  layout.name = base.filename().string();
  layout.vertex_file = fs::path(base.string() + ".v");
  layout.edge_file = fs::path(base.string() + ".e");
  const fs::path properties(base.string() + ".properties");
  if (extension == ".properties" || file_exists(properties)) layout.properties_file = properties;
  return layout;
}

}  // namespace

Graph read_ldbc(const std::filesystem::path& path, const ReadOptions& options) {
  Layout layout = locate(path);
  bool directed = true;
  std::optional<std::size_t> weight_column;  // among the edge line's property columns
  std::optional<std::uint64_t> source;
  std::size_t source_line = 0;  // in the properties file
  bool weights_from_lines = true;  // no properties file: the edge lines say

  if (layout.properties_file) {
    const Properties properties(*layout.properties_file);
    const std::string prefix = "graph." + layout.name + ".";
    const fs::path folder = layout.properties_file->parent_path();
    const fs::path default_edge_file = layout.edge_file;
    if (auto entry = properties.find(prefix + "vertex-file")) layout.vertex_file = folder / entry->value;
    if (auto entry = properties.find(prefix + "edge-file")) layout.edge_file = folder / entry->value;
    // Upstream slip (test-sssp-undirected, test-wcc-directed): the edge file named is the
    // vertex file. Read NAME.e instead when it exists.
    if (layout.edge_file != default_edge_file && file_exists(default_edge_file) &&
        (layout.edge_file == layout.vertex_file ||
         (file_exists(layout.edge_file) && looks_like_vertex_file(layout.edge_file))))
      layout.edge_file = default_edge_file;

    const auto* directed_entry = properties.find(prefix + "directed");
    if (!directed_entry) properties.fail(nullptr, "missing key " + prefix + "directed");
    if (directed_entry->value == "true") directed = true;
    else if (directed_entry->value == "false") directed = false;
    else
      properties.fail(directed_entry, prefix + "directed is " + detail::quoted(directed_entry->value) +
                                          " (expected true or false)");

    weights_from_lines = false;
    std::string weight_name = "weight";
    if (auto entry = properties.find(prefix + "sssp.weight-property")) weight_name = entry->value;
    if (auto entry = properties.find(prefix + "edge-properties.names")) {
      detail::FieldSplitter names(entry->value, true);
      std::string_view property;
      for (std::size_t column = 0; names.next(property); ++column)
        if (property == weight_name) weight_column = column;
    }

    for (const char* key : {"bfs.source-vertex", "sssp.source-vertex"}) {
      const auto* entry = properties.find(prefix + key);
      if (!entry) continue;
      std::uint64_t id = 0;
      auto [stop, error] = std::from_chars(entry->value.data(), entry->value.data() + entry->value.size(), id);
      if (error != std::errc{} || stop != entry->value.data() + entry->value.size())
        properties.fail(entry, prefix + key + " is " + detail::quoted(entry->value) +
                                   ", not a vertex id");
      if (!source) source = id, source_line = entry->line;
    }
  } else if (!file_exists(layout.vertex_file) || !file_exists(layout.edge_file)) {
    throw IoError("cannot read LDBC graph " + path.string() + ": expected " +
                  layout.vertex_file.string() + " and " + layout.edge_file.string());
  }

  // A properties file names its data files: plain files only, never a device or a pipe that
  // would block the reader.
  for (const fs::path& file : {layout.vertex_file, layout.edge_file}) {
    std::error_code unreadable;  // a name too long, a folder without access: not a file to read
    if (!fs::is_regular_file(file, unreadable))
      throw IoError("cannot read LDBC graph " + path.string() + ": " + file.string() +
                    " is not a regular file" +
                    (unreadable ? " (" + unreadable.message() + ")" : std::string()));
  }

  Graph graph;
  graph.vertex_ids = read_vertex_file(layout.vertex_file, options.progress);
  const VertexLookup lookup(graph.vertex_ids);
  const Index n = static_cast<Index>(graph.vertex_ids.size());
  if (source && lookup.find(*source) == no_index)
    throw ParseError(layout.properties_file->string(), source_line,
                     "source vertex " + std::to_string(*source) + " is not in " +
                         layout.vertex_file.string());

  detail::LineReader reader(layout.edge_file, options.progress);
  std::vector<Index> rows, cols;
  std::vector<double> weights;
  std::optional<bool> weighted;
  if (!weights_from_lines) weighted = weight_column.has_value();
  std::string_view line;
  auto vertex = [&](std::string_view field, const char* what) {
    const std::uint64_t id = detail::parse_unsigned(field, reader, what);
    const Index internal = lookup.find(id);
    if (internal == no_index)
      reader.fail(std::string(what) + " " + std::to_string(id) + " is not in the vertex file " +
                  layout.vertex_file.string());
    return internal;
  };
  while (reader.next(line)) {
    line = detail::trim(line);
    if (line.empty() || line[0] == '#') continue;
    if (rows.empty()) {
      rows.reserve(reader.estimated_lines());
      cols.reserve(reader.estimated_lines());
    }
    detail::FieldSplitter fields(line, false);
    std::string_view source_field, target_field, property;
    fields.next(source_field);
    if (!fields.next(target_field))
      reader.fail("edge " + detail::quoted(line) + " has no destination (expected 'source destination [weight]')");
    rows.push_back(vertex(source_field, "source id"));
    cols.push_back(vertex(target_field, "destination id"));
    std::optional<std::string_view> weight_field;
    for (std::size_t column = 0; fields.next(property); ++column)
      if (weights_from_lines ? column == 0 : column == weight_column) weight_field = property;
    if (!weighted) weighted = weight_field.has_value();
    if (weights_from_lines && !*weighted && weight_field)
      reader.fail("a weight on this edge, but none on the first edge");
    if (*weighted) {
      if (!weight_field)
        reader.fail("edge " + detail::quoted(line) + " has no weight" +
                    (weight_column ? " (column " + std::to_string(*weight_column + 3) + ")" : std::string()));
      if (weights.empty()) weights.reserve(rows.capacity());
      weights.push_back(detail::parse_real(*weight_field, reader, "weight"));
    }
  }

  Csr<double> csr = detail::assemble_csr(n, n, std::move(rows), std::move(cols), std::move(weights),
                                         detail::Duplicates::last);
  graph.directed = directed && !options.symmetrize;
  if (!graph.directed) csr = detail::symmetrize_min(csr);
  graph.matrix = Matrix<double>(std::move(csr));
  if (!graph.directed) graph.matrix.mark_symmetric();
  graph.weighted = weighted.value_or(false);
  graph.source = source;
  graph.name = layout.name;
  return graph;
}

}  // namespace grb::io
