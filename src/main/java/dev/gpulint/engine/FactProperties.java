package dev.gpulint.engine;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A fact's properties by the names its rules' conditions use ({@code tp}, {@code nvlinkDeclared}): its public
 * {@code getX()} and boolean {@code isX()} getters, named as Drools names them (JavaBeans: the first letter lowered
 * unless the first two are capitals). What {@code sink.about($fact)} lets a message template read by name, so a rule
 * does not copy a getter into an argument of the same name.
 */
public final class FactProperties {
    private FactProperties() {}

    private static final ClassValue<Map<String, Method>> GETTERS = new ClassValue<>() {
        @Override protected Map<String, Method> computeValue(Class<?> type) {
            Map<String, Method> out = new TreeMap<>();
            for (Method m : type.getMethods()) {
                if (Modifier.isStatic(m.getModifiers()) || m.getParameterCount() != 0 || m.getDeclaringClass() == Object.class) continue;
                String n = m.getName();
                String name = n.startsWith("get") && n.length() > 3 ? n.substring(3)
                        : n.startsWith("is") && n.length() > 2 && (m.getReturnType() == boolean.class || m.getReturnType() == Boolean.class)
                        ? n.substring(2) : null;
                if (name == null || !Character.isUpperCase(name.charAt(0))) continue;
                out.putIfAbsent(decapitalize(name), m);
            }
            return Collections.unmodifiableMap(out);
        }
    };

    /** The property names of a fact type, in name order. */
    public static java.util.Set<String> names(Class<?> type) {
        return GETTERS.get(type).keySet();
    }

    /** Whether {@code fact} has the property. */
    public static boolean has(Object fact, String name) {
        return fact != null && GETTERS.get(fact.getClass()).containsKey(name);
    }

    /** The value of the property {@code name} of {@code fact} (which {@link #has} it). */
    public static Object get(Object fact, String name) {
        Method m = GETTERS.get(fact.getClass()).get(name);
        try {
            return m.invoke(fact);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + fact.getClass().getSimpleName() + "." + name + ": " + e.getCause(), e);
        }
    }

    /** JavaBeans' decapitalize, as Drools reads property names: {@code Tp} → tp, {@code URL} → URL. */
    static String decapitalize(String s) {
        if (s.length() > 1 && Character.isUpperCase(s.charAt(1)) && Character.isUpperCase(s.charAt(0))) return s;
        return Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }
}
