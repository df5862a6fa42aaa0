import ArgumentParser; import MultipeerNIO; print("hi")
