package dev.gpulint.read.evidence;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * nvidia-smi nvlink -s ("GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-...)", then per link "Link 0:
 * 26.562 GB/s" or "Link 1: &lt;inactive&gt;") and nvidia-smi -q ("Attached GPUs : 8", then per
 * GPU "Product Name : NVIDIA H100 80GB HBM3").
 */
final class SmiReader {
    /** GPUs and links read: a node has 8 GPUs of 18 links. */
    static final int MAX_ITEMS = 65_536;
    static final Pattern GPU = Pattern.compile("^GPU (\\d{1,4}): (.{1,200}?)\\s*(\\(UUID: [^)]{0,64}\\))?\\s*$");
    static final Pattern LINK = Pattern.compile("^\\s+Link (\\d{1,3}): (.{0,64}?)\\s*$");
    private static final Pattern SPEED = Pattern.compile("^([0-9.]{1,10}) GB/s");
    private static final Pattern FIELD = Pattern.compile("^\\s*(Attached GPUs|Product Name)\\s*:\\s*(.*?)\\s*$");

    private SmiReader() {}

    static Evidence.NvlinkStatus nvlink(String file, List<String> lines) {
        List<Evidence.NvlinkGpu> gpus = new ArrayList<>();
        List<Evidence.NvlinkLink> links = null;
        int items = 0;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            Matcher g = GPU.matcher(l);
            if (g.matches()) {
                links = new ArrayList<>();
                gpus.add(new Evidence.NvlinkGpu(Integer.parseInt(g.group(1)), g.group(2), Text.lineSpan(file, i + 1, l), links));
            } else if (links != null) {
                Matcher k = LINK.matcher(l);
                if (!k.matches()) continue;
                boolean inactive = k.group(2).contains("inactive");
                Matcher s = SPEED.matcher(k.group(2));
                links.add(new Evidence.NvlinkLink(Integer.parseInt(k.group(1)), s.find() ? Text.number(s.group(1), 0) : 0, inactive,
                        Text.lineSpan(file, i + 1, l)));
            } else {
                continue;
            }
            if (++items > MAX_ITEMS) throw new Unreadable(Text.span(file, i + 1, 1, 0), "more than " + MAX_ITEMS + " GPUs and links");
        }
        List<Evidence.NvlinkGpu> frozen = new ArrayList<>();
        for (Evidence.NvlinkGpu g : gpus) frozen.add(new Evidence.NvlinkGpu(g.index(), g.name(), g.span(), List.copyOf(g.links())));
        return new Evidence.NvlinkStatus(file, List.copyOf(frozen));
    }

    static Evidence.SmiQuery query(String file, List<String> lines) {
        int attached = -1;
        dev.gpulint.core.Span attachedSpan = null;
        List<Evidence.Word> names = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            Matcher f = FIELD.matcher(l);
            if (!f.matches()) continue;
            String v = f.group(2);
            var span = Text.span(file, i + 1, l.indexOf(v, l.indexOf(':')) + 1, v.length());
            if (f.group(1).equals("Attached GPUs")) {
                attached = (int) Text.whole(v, -1);
                attachedSpan = span;
            } else if (names.size() < MAX_ITEMS) {
                names.add(new Evidence.Word(v, span));
            }
        }
        return new Evidence.SmiQuery(file, attached, attachedSpan, List.copyOf(names));
    }
}
