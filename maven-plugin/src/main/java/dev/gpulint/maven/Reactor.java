package dev.gpulint.maven;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The top of the multi-module project a module belongs to, read from the POM files on disk: from the module's
 * folder up, each folder whose {@code pom.xml} lists the one below as a {@code <module>} (in {@code <modules>} or a
 * profile's). A full build's top-level project is that aggregator; {@code mvn -pl jobs verify} makes the module its
 * own top-level project, which would hide its sibling modules (the cluster a job runs on), so the POMs decide.
 */
final class Reactor {
    private Reactor() {}

    /** The most folders walked up; a real project nests a few levels. */
    private static final int MAX_LEVELS = 32;

    /**
     * The top of the module's multi-module project, or {@code fallback} (the session's top-level project) when
     * that lies higher or no aggregator lists the module.
     */
    static Path top(Path module, Path fallback, Consumer<CharSequence> debug) {
        Path dir = module.toAbsolutePath().normalize();
        for (int i = 0; i < MAX_LEVELS; i++) {
            Path up = dir.getParent();
            if (up == null || !lists(up, dir)) break;
            debug.accept("gpulint: " + up.resolve("pom.xml") + " lists " + dir + " as a module");
            dir = up;
        }
        if (fallback != null) {
            Path f = fallback.toAbsolutePath().normalize();
            if (!f.equals(dir) && dir.startsWith(f)) return f;
        }
        return dir;
    }

    /** Whether {@code folder/pom.xml} lists {@code module} (a folder, or a POM file in it) as a module. */
    static boolean lists(Path folder, Path module) {
        Path pom = folder.resolve("pom.xml");
        if (!Files.isRegularFile(pom)) return false;
        for (String m : modules(pom)) {
            Path p = folder.resolve(m.strip()).normalize();
            if (Files.isRegularFile(p)) p = p.getParent();
            if (module.equals(p)) return true;
        }
        return false;
    }

    /** The {@code <module>} entries of a POM, its profiles' included; none when it cannot be read. */
    static List<String> modules(Path pom) {
        List<String> out = new ArrayList<>();
        try (InputStream in = Files.newInputStream(pom)) {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setExpandEntityReferences(false);
            NodeList all = f.newDocumentBuilder().parse(in).getElementsByTagName("module");
            for (int i = 0; i < all.getLength(); i++) {
                Node n = all.item(i);
                Node parent = n.getParentNode();
                if (parent instanceof Element e && "modules".equals(e.getTagName())) out.add(n.getTextContent());
            }
        } catch (IOException | javax.xml.parsers.ParserConfigurationException | org.xml.sax.SAXException e) {
            return List.of();
        }
        return out;
    }
}
