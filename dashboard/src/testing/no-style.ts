// What a stylesheet import is in a component spec: nothing (the bundler handles stylesheets in the build).
export default {};
