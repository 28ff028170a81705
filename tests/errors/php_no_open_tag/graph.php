function g() {}
