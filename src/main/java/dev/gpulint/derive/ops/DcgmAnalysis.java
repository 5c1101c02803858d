package dev.gpulint.derive.ops;

import dev.gpulint.derive.Facts;
import dev.gpulint.facts.DcgmFieldFact;
import dev.gpulint.spec.Specs;
import java.util.List;
import java.util.Locale;

/** The OPS family's analysis: each DCGM field of a counter list or a PromQL expression, against DCGM's field list. */
public final class DcgmAnalysis {
    private DcgmAnalysis() {}

    public static void fields(List<Specs.DcgmField> counters, List<Specs.MetricQuery> queries, Facts out) {
        DcgmFields fields = DcgmFields.builtIn();
        for (Specs.DcgmField c : counters) {
            String n = c.name().value();
            out.add(new DcgmFieldFact(n, c.name().span(), c.file(), "COUNTER_LIST",
                    c.type() == null ? null : c.type().value().strip().toLowerCase(Locale.ROOT), c.type() == null ? null : c.type().span(),
                    "", "the counter list", fields.known(n), fields.misspeltFrom(n), fields.classOf(n),
                    fields.unitBytes(n), fields.unitName(n), fields.oneEdit(n)));
        }
        for (Specs.MetricQuery q : queries) {
            String n = q.metric().value();
            out.add(new DcgmFieldFact(n, q.metric().span(), q.file(), "QUERY", null, null, q.function(),
                    q.owner(), fields.known(n), fields.misspeltFrom(n), fields.classOf(n), fields.unitBytes(n), fields.unitName(n), fields.oneEdit(n)));
        }
    }
}
