def greet(name):
    print("Hello, " + name)


def main():
    for name in ["world", "editcore"]:
        greet(name)


if __name__ == "__main__":
    main()
