package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.facts.AttentionBackendFact;
import org.junit.jupiter.api.Test;

/** Plain YAML scalars as SkyPilot's str() of PyYAML's value and as Kubernetes' string check read them (PAR018's variables). */
class YamlScalarsTest {

    @Test
    void pythonStringIsStrOfWhatPyYamlReads() {
        assertEquals("1", YamlScalars.pythonString("1"));
        assertEquals("1", YamlScalars.pythonString("01"));          // YAML 1.1 octal
        assertEquals("8", YamlScalars.pythonString("010"));
        assertEquals("08", YamlScalars.pythonString("08"));         // not octal: a string
        assertEquals("0o1", YamlScalars.pythonString("0o1"));       // YAML 1.2's octal is a string in 1.1
        assertEquals("16", YamlScalars.pythonString("0x10"));
        assertEquals("2", YamlScalars.pythonString("0b10"));
        assertEquals("-1", YamlScalars.pythonString("-1"));
        assertEquals("1000", YamlScalars.pythonString("1_000"));
        assertEquals("3661", YamlScalars.pythonString("1:01:01"));   // base 60
        assertEquals("True", YamlScalars.pythonString("true"));
        assertEquals("True", YamlScalars.pythonString("on"));
        assertEquals("False", YamlScalars.pythonString("No"));
        assertEquals("flash", YamlScalars.pythonString("flash"));
        assertNull(YamlScalars.pythonString("1.0"));                 // a float: Python's printing not redone
        assertNull(YamlScalars.pythonString("null"));
        assertNull(YamlScalars.pythonString("0b_"));
    }

    @Test
    void kubernetesStringIsAPlainScalarYamlDoesNotTypeOtherwise() {
        assertTrue(YamlScalars.kubernetesString("flash"));
        assertTrue(YamlScalars.kubernetesString("08"));
        assertFalse(YamlScalars.kubernetesString("0"));
        assertFalse(YamlScalars.kubernetesString("01"));
        assertFalse(YamlScalars.kubernetesString("0o1"));
        assertFalse(YamlScalars.kubernetesString("1.5"));
        assertFalse(YamlScalars.kubernetesString("true"));
        assertFalse(YamlScalars.kubernetesString("y"));
        assertFalse(YamlScalars.kubernetesString("~"));
    }

    @Test
    void transformerEngineReadsTheVariableWithInt() {
        assertFalse(AttentionBackendFact.on("0"));
        assertFalse(AttentionBackendFact.on("00"));
        assertFalse(AttentionBackendFact.on("+0"));
        assertTrue(AttentionBackendFact.on("1"));
        assertTrue(AttentionBackendFact.on("01"));
        assertTrue(AttentionBackendFact.on("True"));                 // int() refuses it; Megatron-Core's assert comes first
        assertTrue(AttentionBackendFact.on("0o1"));
    }
}
