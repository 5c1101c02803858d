package dev.gpulint.plan;

import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.estimate.JobEstimate;
import dev.gpulint.derive.estimate.Layout;
import dev.gpulint.plan.draw.Pictures;
import dev.gpulint.plan.draw.Scene;

/**
 * The placement pictures of a plan's layout (../spec/PLAN.md, "Pictures"): the job as written, or one of its candidates,
 * drawn on its node group under its rank order. Null when the plan has no layout to draw (its inputs are incomplete).
 */
public final class PlanPictures {
    private PlanPictures() {}

    /** The picture of the plan's current layout in {@code format}; {@code table} goes before it in markdown. */
    public static String draw(Planner.Plan plan, Pictures.Format format, String table) { return draw(plan, format, table, null); }

    /** The picture of {@code layout} (null: the job as written) on the job's node group. */
    public static String draw(Planner.Plan plan, Pictures.Format format, String table, Layout layout) {
        JobEstimate current = plan.current();
        if (current == null || current.inputs() == null || current.inputs().layout() == null) return null;
        Resolved.Job job = current.job();
        Resolved.Group g = job.group();
        int perNode = (int) Math.max(1, Math.min(Integer.MAX_VALUE, job.gpusPerNode()));
        Scene.Nodes nodes = new Scene.Nodes(g == null ? null : g.name(), perNode, g == null ? perNode : g.domainSize(),
                g == null || g.gpu() == null ? null : g.gpu().name());
        dev.gpulint.derive.estimate.MoeShape moe = current.inputs().variants() == null ? null : current.inputs().variants().moe();
        return Pictures.draw(format, layout != null ? layout : current.inputs().layout(), current.inputs().order(), nodes,
                moe == null ? 0 : moe.etp(), table);
    }
}
