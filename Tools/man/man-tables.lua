-- pandoc filter for the man pages built from docs/*.md (Tools/build-man.sh).
-- pandoc's man writer gives a table with relative column widths 70 ens in all, which is
-- wider than an 80-column page once the section's indent and tbl's column gaps are added
-- ("table wider than line width" from `man --warnings`): scale the widths down to fit.
-- Text is set ragged-right (.ad l) so narrow table cells holding long words do not make
-- troff report lines it "cannot adjust". (Hyphenation stays on: without it the same cells
-- give "can't break line".)
local scale = 0.8

function Table(table)
  for _, spec in ipairs(table.colspecs) do
    if type(spec[2]) == "number" then
      spec[2] = spec[2] * scale
    end
  end
  return table
end

function Pandoc(document)
  document.blocks:insert(1, pandoc.RawBlock("man", ".ad l"))
  return document
end
