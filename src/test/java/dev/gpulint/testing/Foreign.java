package dev.gpulint.testing;

import dev.gpulint.bind.adapt.Adapters;
import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Model;
import dev.gpulint.spec.Specs;
import java.util.List;

/**
 * The adapter tests' set-up: one file of another format (a framework's configuration, a launch script) read as
 * {@code name} and bound by the adapters alone, as {@code Adapters.bind} binds a run's foreign documents.
 */
public final class Foreign {

    private Foreign() {}

    /** What the adapters bind from {@code text} read as file {@code name}: its jobs, NIC settings and findings. */
    public static Model model(String name, String text) {
        SourceFile f = SourceFile.of(name, text);
        return Adapters.bind(List.of(new Adapters.Input(f, Readers.read(f).foreign())));
    }

    /** The SYN002 findings met binding, {@code line:column message} each, in order. */
    public static List<String> syn002(Model m) {
        return m.findings().stream().filter(f -> f.ruleId().equals("SYN002"))
                .map(f -> f.span().startLine() + ":" + f.span().startColumn() + " " + f.message()).toList();
    }

    /** The jobs bound from {@code text} read as file {@code name}. */
    public static List<Specs.Job> jobs(String name, String text) {
        return model(name, text).jobs();
    }

    /** The first job bound from {@code text} read as file {@code name}. */
    public static Specs.Job bind(String name, String text) {
        return jobs(name, text).get(0);
    }
}
