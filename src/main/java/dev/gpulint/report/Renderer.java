package dev.gpulint.report;

import dev.gpulint.core.LintResult;
import java.io.IOException;
import java.io.Writer;

/** Turns a settled result into one output format. Renderers decide nothing: levels and order are already set. */
public interface Renderer {
    void render(LintResult result, Writer out) throws IOException;
}
