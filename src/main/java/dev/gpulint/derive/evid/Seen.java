package dev.gpulint.derive.evid;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Span;
import dev.gpulint.read.evidence.Evidence;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a captured tool output shows of one node: GPUs, NICs and the GPU model (as the catalog
 * names it, else as printed), each -1 or "" when the output does not show it, with where it shows.
 */
record Seen(long gpus, Span gpusSpan, long nics, Span nicsSpan, String model, Span modelSpan, boolean modelKnown) {

    static Seen of(Evidence e, Catalog catalog) {
        if (e instanceof Evidence.Topology m) {
            List<Evidence.Device> gpus = m.devices().stream().filter(Evidence.Device::gpu).toList();
            List<Evidence.Device> nics = m.devices().stream().filter(d -> !d.gpu()).toList();
            return new Seen(gpus.size(), gpus.get(gpus.size() - 1).span(), nics.size(),
                    nics.isEmpty() ? gpus.get(gpus.size() - 1).span() : nics.get(nics.size() - 1).span(), "", null, false);
        }
        if (e instanceof Evidence.SmiQuery q) {
            Evidence.Word first = q.productNames().isEmpty() ? null : q.productNames().get(0);
            return model(q.attached(), q.attachedSpan(), -1, null, first, catalog);
        }
        if (e instanceof Evidence.SmiTable t) {
            if (t.gpus().isEmpty()) return none();
            Evidence.Word name = t.gpus().get(0).name();
            // drivers before 535 cut a long name ("Tesla V100-SXM2..."): the model is then not known from it
            if (name.text().endsWith("...")) name = null;
            return model(t.gpus().size(), t.gpus().get(t.gpus().size() - 1).span(), -1, null, name, catalog);
        }
        if (e instanceof Evidence.NvlinkStatus s) {
            if (s.gpus().isEmpty()) return none();
            Evidence.NvlinkGpu last = s.gpus().get(s.gpus().size() - 1);
            return model(s.gpus().size(), last.span(), -1, null, new Evidence.Word(s.gpus().get(0).name(), s.gpus().get(0).span()), catalog);
        }
        if (e instanceof Evidence.DcgmNvlinkStatus s) {
            // dcgmi names no GPU model: the GPUs are counted
            if (s.gpus().isEmpty()) return none();
            return new Seen(s.gpus().size(), s.gpus().get(s.gpus().size() - 1).span(), -1, null, "", null, false);
        }
        if (e instanceof Evidence.IbPorts p) {
            Set<String> adapters = new LinkedHashSet<>();
            Span last = null;
            for (Evidence.IbPort port : p.ports()) if (adapters.add(port.adapter())) last = port.span();
            return new Seen(-1, null, adapters.isEmpty() ? -1 : adapters.size(), last, "", null, false);
        }
        if (e instanceof Evidence.NcclTests n && !n.ranks().isEmpty()) {
            Map<String, Integer> perHost = new HashMap<>();
            for (Evidence.Rank r : n.ranks()) perHost.merge(r.host(), 1, Integer::sum);
            int most = perHost.values().stream().mapToInt(Integer::intValue).max().orElse(0);
            Evidence.Rank first = n.ranks().get(0);
            return model(most, first.span(), -1, null, new Evidence.Word(first.gpuName(), first.span()), catalog);
        }
        return none();
    }

    private static Seen none() { return new Seen(-1, null, -1, null, "", null, false); }

    private static Seen model(long gpus, Span gpusSpan, long nics, Span nicsSpan, Evidence.Word name, Catalog catalog) {
        if (name == null || name.text().isBlank()) return new Seen(gpus, gpusSpan, nics, nicsSpan, "", null, false);
        Catalog.Gpu g = catalog.gpu(name.text()).orElse(null);
        return new Seen(gpus, gpusSpan, nics, nicsSpan, g == null ? name.text() : g.name(), name.span(), g != null);
    }

    /** Nothing the output shows contradicts the node group's declaration (NICs: at least as many as declared). */
    boolean matches(Target t) {
        if (gpus >= 0 && gpus != t.gpus()) return false;
        if (nics >= 0 && t.nics() >= 0 && nics < t.nics()) return false;
        return model.isEmpty() || !modelKnown || model.equals(t.gpuModel());
    }
}
