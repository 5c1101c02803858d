package dev.gpulint.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gpulint.core.Span;
import dev.gpulint.meta.Messages;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** sink.about($fact): a report's templates read the facts' properties by the names DRL uses (a message ends as a sentence). */
class FindingSinkAboutTest {

    /** A fact as the rules see one: getters, a boolean isX, and a name two facts share. */
    public static final class Group {
        public String getName() { return "dgx"; }
        public long getGpus() { return 8; }
        public boolean isNvlinkDeclared() { return true; }
        public String getURL() { return "u"; }
    }

    public static final class Job {
        public String getName() { return "llama"; }
        public long getTp() { return 16; }
    }

    private static final Map<String, String> TEMPLATES = Map.of(
            "one", "group '{name}' has {gpus|# GPU|# GPUs}{nvlinkDeclared? and NVLink}",
            "two", "job '{name}' (tp {tp}) on {gpus} GPUs",
            "arg", "named {name}",
            "url", "{URL}",
            "missing", "{nothing}");

    private static String report(String key, java.util.function.Function<FindingSink, FindingSink.Report> start) {
        FindingSink sink = new FindingSink(id -> TEMPLATES);
        sink.firing("TEST1");
        start.apply(sink).report(key);
        return sink.findings().get(0).message();
    }

    @Test
    void theTemplatesReadTheFactsPropertiesByTheirDrlNames() {
        assertEquals("group 'dgx' has 8 GPUs and NVLink.", report("one", s -> s.about(new Group()).at(Span.at("c.yaml", 1, 1), "g")));
        assertEquals("u.", report("url", s -> s.about(new Group()).at(Span.at("c.yaml", 1, 1), "g")), "JavaBeans: getURL is URL");
    }

    @Test
    void theFirstFactWithAPropertyGivesItAndAnArgWinsOverEveryFact() {
        assertEquals("job 'llama' (tp 16) on 8 GPUs.", report("two", s -> s.about(new Job(), new Group()).at(Span.at("c.yaml", 1, 1), "j")));
        assertEquals("named other.", report("arg", s -> s.about(new Job(), new Group()).at(Span.at("c.yaml", 1, 1), "j").arg("name", "other")));
    }

    @Test
    void aPlaceholderNoFactHoldsIsAnError() {
        assertThrows(Messages.TemplateException.class, () -> report("missing", s -> s.about(new Group()).at(Span.at("c.yaml", 1, 1), "g")));
    }

    @Test
    void thePropertyNamesAreTheGettersAndBooleanIsMethods() {
        assertEquals(Set.of("name", "gpus", "nvlinkDeclared", "URL"), FactProperties.names(Group.class));
    }
}
