-- pandoc filter for the man pages built from docs/*.md (Tools/packaging/build-man.sh).
-- pandoc's man writer sets a table's columns in ens, as fractions of 70: the pipe tables of
-- docs/ get equal fractions (their separator rows are |---|---|), 70 ens in all, which is
-- wider than an 80-column page once the section's indent and tbl's column gaps are added
-- ("table wider than line width" from `man --warnings`) and wastes the width on short
-- columns. Each column gets the room its longest cell needs, at least its longest word,
-- the whole fitting in `available` ens: an 80-column page is 78 ens wide, 71 past the
-- indent of a section's text.
-- Text is set ragged-right (.ad l) so that narrow cells do not make troff report lines it
-- "cannot adjust".
local available = 69
local writer_width = 70

local function measure(cell)
  local text = pandoc.utils.stringify(cell.contents)
  local longest_word = 0
  for word in text:gmatch("%S+") do
    longest_word = math.max(longest_word, utf8.len(word) or #word)
  end
  return utf8.len(text) or #text, longest_word
end

local function rows_of(table)
  local rows = {}
  for _, row in ipairs(table.head.rows) do rows[#rows + 1] = row end
  for _, body in ipairs(table.bodies) do
    for _, row in ipairs(body.body) do rows[#rows + 1] = row end
  end
  return rows
end

function Table(table)
  local count = #table.colspecs
  local need, word = {}, {}
  for i = 1, count do need[i], word[i] = 1, 1 end
  for _, row in ipairs(rows_of(table)) do
    for i, cell in ipairs(row.cells) do
      if i <= count then
        local length, longest = measure(cell)
        need[i] = math.max(need[i], length)
        word[i] = math.max(word[i], longest)
      end
    end
  end
  local room = available - 3 * (count - 1)  -- tbl puts 3 ens between columns
  local total_need, total_word = 0, 0
  for i = 1, count do total_need, total_word = total_need + need[i], total_word + word[i] end
  local widths = {}
  for i = 1, count do
    if total_need <= room then
      widths[i] = need[i]
    elseif total_word < room then
      -- Every column its longest word, the rest shared by what each still lacks.
      widths[i] = word[i] + (room - total_word) * (need[i] - word[i]) / (total_need - total_word)
    else
      widths[i] = room * word[i] / total_word
    end
  end
  for i, spec in ipairs(table.colspecs) do
    table.colspecs[i] = { spec[1], widths[i] / writer_width }
  end
  -- On a terminal man sets one long page (cR=1) that grows where .ne asks; tbl checks a
  -- cell's height against the room left before it asks, and warns "table text block will
  -- not fit on one page" for a tall cell near the page's current end. Asking first for
  -- room enough for any table here grows the page beforehand (and adds no blank lines: the
  -- page is cut where the text ends).
  return { pandoc.RawBlock("man", ".if \\n[cR] .ne 200v"), table }
end

function Pandoc(document)
  document.blocks:insert(1, pandoc.RawBlock("man", ".ad l"))
  return document
end
