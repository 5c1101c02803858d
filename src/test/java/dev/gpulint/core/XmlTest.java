package dev.gpulint.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/** The one XML escaper, read back by the JDK's own XML parser in text, in both kinds of quoted attribute. */
class XmlTest {

    static final String HOSTILE = "a\"b'c<d>&e\tf\ng\rh \uD83D\uDE80 é";

    private static Element parse(String xml) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
    }

    @Test
    void textAndBothKindsOfAttributeReadBackExactly() throws Exception {
        String a = Xml.attribute(HOSTILE);
        Element e = parse("<x d=\"" + a + "\" s='" + a + "'>" + Xml.text(HOSTILE) + "</x>");
        assertEquals(HOSTILE, e.getAttribute("d"));
        assertEquals(HOSTILE, e.getAttribute("s"));
        assertEquals(HOSTILE, e.getTextContent());
    }

    @Test
    void charactersXmlCannotCarryAreShownNotWritten() throws Exception {
        String bad = "a\u0001b\uFFFEc\uD800d";
        assertEquals("a\\u0001b\\uFFFEc\\uD800d", Xml.text(bad));
        assertEquals("a\\u0001b\\uFFFEc\\uD800d", parse("<x v=\"" + Xml.attribute(bad) + "\"/>").getAttribute("v"));
    }
}
